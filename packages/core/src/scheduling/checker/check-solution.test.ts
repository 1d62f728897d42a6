import { describe, expect, it } from 'vitest';
import { Requirement } from '../requirements/requirement.js';
import { parseResourceList } from '../resources/resource-list.js';
import { solve } from '../solver/solve.js';
import {
  boundPod,
  existing,
  node,
  nodePool,
  pod,
  pods,
  solverInput,
  standardTypes,
} from '../solver/testing/index.js';
import type { NewClaim, SolverInput, SolverResult } from '../solver/types.js';
import { checkSolution } from './check-solution.js';

const ZONE = 'topology.kubernetes.io/zone';

/** A valid result to break in one place. */
function valid(input: SolverInput): SolverResult {
  const r = solve(input);
  expect(checkSolution(input, r)).toEqual([]);
  return r;
}

function withClaim(r: SolverResult, i: number, change: (c: NewClaim) => NewClaim): SolverResult {
  return { ...r, newClaims: r.newClaims.map((c, j) => (j === i ? change(c) : c)) };
}

describe('checkSolution', () => {
  it('accepts the empty solve', () => {
    const input = solverInput({ pods: [] });
    expect(checkSolution(input, { newClaims: [], existing: [], unschedulable: [] })).toEqual([]);
  });

  it('finds pods missing, duplicated or invented', () => {
    const input = solverInput({ pods: pods('p', 2) });
    const r = valid(input);
    const p0 = r.newClaims[0]!.pods[0]!;
    const broken = withClaim(r, 0, (c) => ({ ...c, pods: [p0, p0, pod('stranger')] }));
    expect(checkSolution(input, broken)).toEqual(
      expect.arrayContaining([
        'pod default/stranger is in the result but not in the input',
        'pod default/p-0 appears 2 times in the result (want exactly once)',
        'pod default/p-1 appears 0 times in the result (want exactly once)',
      ]),
    );
  });

  it('finds a claim whose types cannot hold its pods', () => {
    const input = solverInput({ pods: pods('p', 3, { cpu: '1500m' }), options: { repack: false } });
    const r = valid(input);
    const small = standardTypes()[0]!;
    const broken = withClaim(r, 0, (c) => ({ ...c, instanceTypes: [small, ...c.instanceTypes] }));
    const v = checkSolution(input, broken);
    expect(
      v.some((m) => m.includes('type small cannot hold') && m.includes('cpu: requested 4500m, available 2')),
    ).toBe(true);
  });

  it('finds a type outside the claim requirements or the NodePool', () => {
    const input = solverInput({ pods: [pod('p', { nodeSelector: { [ZONE]: 'zone-a' } })] });
    const r = valid(input);
    const moved = withClaim(r, 0, (c) => ({
      ...c,
      requirements: c.requirements.copy().add(Requirement.create(ZONE, 'In', ['zone-a'])),
      nodePool: 'nope',
    }));
    expect(checkSolution(input, moved)).toEqual(['claim 0 (NodePool nope): unknown NodePool']);
  });

  it('finds a pod whose node selector the claim does not meet', () => {
    const input = solverInput({ pods: [pod('p', { nodeSelector: { [ZONE]: 'zone-a' } })] });
    const r = valid(input);
    const broken = withClaim(r, 0, (c) => {
      const reqs = c.requirements.copy();
      const out = new (reqs.constructor as typeof import('../requirements/requirements.js').Requirements)(
        reqs.list().filter((x) => x.key !== ZONE),
      ).add(Requirement.create(ZONE, 'In', ['zone-b']));
      return { ...c, requirements: out };
    });
    expect(checkSolution(input, broken).some((m) => m.includes('do not satisfy its node constraints'))).toBe(
      true,
    );
  });

  it('finds untolerated taints and host port clashes', () => {
    const tainted = nodePool('default', { taints: [{ key: 'x', effect: 'NoSchedule' }] });
    const ported = {
      spec: {
        containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 80 }] }],
        tolerations: [{ operator: 'Exists' }],
      },
    };
    const input = solverInput({ pods: pods('p', 2, ported), nodePools: [tainted] });
    const r = valid(input);
    expect(r.newClaims).toHaveLength(2);
    const merged = {
      ...r,
      newClaims: [{ ...r.newClaims[0]!, pods: [...r.newClaims[0]!.pods, ...r.newClaims[1]!.pods] }],
    };
    expect(checkSolution(input, merged)).toEqual(
      expect.arrayContaining(['claim 0: host port 80/TCP of pod default/p-1 clashes with pod default/p-0']),
    );
    const intolerant = solverInput({ pods: [pod('q')], nodePools: [nodePool('default')] });
    const q = valid(intolerant);
    expect(checkSolution({ ...intolerant, nodePools: [tainted] }, q)).toEqual(
      expect.arrayContaining([
        'pod default/q on claim 0 (NodePool default) does not tolerate taint x:NoSchedule',
      ]),
    );
  });

  it('finds over-allocated existing nodes and pods placed on nodes being deleted', () => {
    const n = node('n1', { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } });
    const input = solverInput({
      pods: pods('p', 2, { cpu: '1' }),
      existing: [existing(n, [boundPod('old', 'n1', { cpu: '1' })])],
    });
    const r = valid(input);
    const all = [...r.existing.flatMap((e) => e.pods), ...r.newClaims.flatMap((c) => c.pods)];
    const over: SolverResult = { newClaims: [], existing: [{ name: 'n1', pods: all }], unschedulable: [] };
    expect(checkSolution(input, over)).toEqual([
      'node n1 is over-allocated: cpu: requested 3, available 2 (short by 1)',
    ]);
    const deleting = { ...input, existing: [existing(n, [], { markedForDeletion: true })] };
    expect(
      checkSolution(deleting, {
        newClaims: [],
        existing: [{ name: 'n1', pods: [all[0]!] }],
        unschedulable: [{ pod: all[1]!, reason: 'x' }],
      }),
    ).toEqual(['node n1 is being deleted but got 1 pods']);
  });

  it('finds NodePool limits exceeded', () => {
    const input = solverInput({
      pods: pods('p', 2, { cpu: '9' }),
      nodePools: [nodePool('default', { limits: { cpu: '16' } })],
    });
    const r = valid(input);
    expect(r.newClaims).toHaveLength(1);
    const extra = r.unschedulable[0]!.pod;
    const broken: SolverResult = {
      ...r,
      newClaims: [...r.newClaims, { ...r.newClaims[0]!, pods: [extra] }],
      unschedulable: [],
    };
    expect(checkSolution(input, broken)).toEqual([
      "NodePool default: cpu 32 (usage plus new claims' largest types) exceeds the limit 16",
    ]);
  });

  it('finds topology spread and anti-affinity violations', () => {
    const labels = { app: 'web' };
    const spread = {
      labels,
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: labels },
          },
        ],
      },
    };
    const input = solverInput({ pods: pods('w', 3, spread) });
    const r = valid(input);
    const zoneA = r.newClaims[0]!;
    const piled = { ...r, newClaims: [{ ...zoneA, pods: r.newClaims.flatMap((c) => c.pods) }] };
    expect(checkSolution(input, piled)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('topology spread maxSkew 1 on topology.kubernetes.io/zone violated'),
      ]),
    );
    const anti = {
      labels,
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    };
    const input2 = solverInput({ pods: pods('a', 2, anti) });
    const r2 = valid(input2);
    const together = {
      ...r2,
      newClaims: [{ ...r2.newClaims[0]!, pods: r2.newClaims.flatMap((c) => c.pods) }],
    };
    expect(checkSolution(input2, together)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('share kubernetes.io/hostname=claim 0 against default/a-0'),
      ]),
    );
  });

  it('finds unmet pod affinity', () => {
    const aff = {
      spec: {
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: ZONE },
            ],
          },
        },
      },
    };
    const input = solverInput({
      pods: [pod('db', { labels: { app: 'db' }, nodeSelector: { [ZONE]: 'zone-a' } }), pod('w', aff)],
    });
    const r = valid(input);
    expect(r.newClaims).toHaveLength(1);
    const c = r.newClaims[0]!;
    const one = parseResourceList({ cpu: '1', memory: '1Gi', pods: '1' });
    const split: SolverResult = {
      ...r,
      newClaims: [
        { ...c, pods: [c.pods[0]!], requests: one },
        {
          ...c,
          pods: [c.pods[1]!],
          requests: one,
          requirements: c.requirements.copy().add(Requirement.create(ZONE, 'In', ['zone-a'])),
        },
      ],
    };
    expect(checkSolution(input, split)).toEqual([]);
    const elsewhere = {
      ...split,
      newClaims: [
        split.newClaims[0]!,
        { ...split.newClaims[1]!, requirements: withZone(c.requirements, 'zone-b') },
      ],
    };
    expect(checkSolution(input, elsewhere)).toEqual(
      expect.arrayContaining([
        'pod default/w: pod affinity on topology.kubernetes.io/zone not satisfied in zone-b',
      ]),
    );
  });

  it('finds a wrong price or requests', () => {
    const input = solverInput({ pods: [pod('p')] });
    const r = valid(input);
    expect(
      checkSolution(
        input,
        withClaim(r, 0, (c) => ({ ...c, price: 9 })),
      ),
    ).toEqual(['claim 0 (NodePool default): price 9 is not the cheapest compatible offering (0.07)']);
    expect(
      checkSolution(
        input,
        withClaim(r, 0, (c) => ({ ...c, requests: new Map() })),
      ),
    ).toEqual(["claim 0 (NodePool default): requests {} are not its pods' plus DaemonSet overhead"]);
  });
});

function withZone(reqs: import('../requirements/requirements.js').Requirements, zone: string) {
  const Ctor = reqs.constructor as typeof import('../requirements/requirements.js').Requirements;
  return new Ctor(reqs.list().filter((x) => x.key !== ZONE)).add(Requirement.create(ZONE, 'In', [zone]));
}
