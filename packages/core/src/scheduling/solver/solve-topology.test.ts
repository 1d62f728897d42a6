import { describe, expect, it } from 'vitest';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import {
  boundPod,
  existing,
  instanceType,
  node,
  nodePool,
  pod,
  pods,
  solverInput,
  summarize,
} from './testing/index.js';
import type { SolverInput } from './types.js';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const web = { app: 'web' };

function spread(key: string, o: Record<string, unknown> = {}) {
  return {
    spec: {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: key,
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: web },
          ...o,
        },
      ],
    },
    labels: web,
  };
}

/** Pods per zone across the result's claims (and existing nodes by their zone label). */
function zoneCounts(input: SolverInput, r: ReturnType<typeof solve>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of r.newClaims) {
    const z = c.requirements.get(ZONE);
    const name = z !== undefined && z.values.size === 1 ? [...z.values][0]! : 'any';
    out[name] = (out[name] ?? 0) + c.pods.length;
  }
  for (const e of r.existing) {
    const n = input.existing.find((x) => x.name === e.name)!;
    const z = n.node?.metadata.labels?.[ZONE] ?? 'any';
    out[z] = (out[z] ?? 0) + e.pods.length;
  }
  return out;
}

describe('solve: topology spread', () => {
  it('balances pods across zones, least-populated zone first', () => {
    const input = solverInput({ pods: pods('w', 6, spread(ZONE)) });
    const r = run(input);
    expect(summarize(r).claims.map((c) => [c.zone, c.pods])).toEqual([
      ['In [zone-a]', ['w-0', 'w-3']],
      ['In [zone-b]', ['w-1', 'w-4']],
      ['In [zone-c]', ['w-2', 'w-5']],
    ]);
  });

  it('spreads only over the zones the NodePool allows', () => {
    const pool = nodePool('default', {
      requirements: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }],
    });
    const input = solverInput({ pods: pods('w', 5, spread(ZONE)), nodePools: [pool] });
    expect(zoneCounts(input, run(input))).toEqual({ 'zone-a': 3, 'zone-b': 2 });
  });

  it('counts matching pods already running', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-a' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const bound = [
      boundPod('old-1', 'n1', { labels: web }),
      boundPod('old-2', 'n1', { labels: web, cpu: '0', memory: '0' }),
    ];
    const input = solverInput({ pods: pods('w', 4, spread(ZONE)), existing: [existing(n, bound)] });
    // zone-a has 2 already: the new pods fill b and c to 2 before a may take more.
    expect(zoneCounts(input, run(input))).toEqual({ 'zone-b': 2, 'zone-c': 2 });
  });

  it('ignores running pods that do not match the selector or namespace', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-a' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const bound = [
      boundPod('other', 'n1', { labels: { app: 'db' } }),
      boundPod('elsewhere', 'n1', { labels: web, namespace: 'prod' }),
    ];
    const input = solverInput({ pods: pods('w', 3, spread(ZONE)), existing: [existing(n, bound)] });
    expect(zoneCounts(input, run(input))).toEqual({ 'zone-a': 1, 'zone-b': 1, 'zone-c': 1 });
  });

  it('allows a larger skew with a larger maxSkew', () => {
    const input = solverInput({ pods: pods('w', 4, spread(HOST, { maxSkew: 4 })) });
    expect(summarize(run(input)).claims.map((c) => c.pods.length)).toEqual([4]);
  });

  it('gives each pod its own node for hostname spread with maxSkew 1', () => {
    const input = solverInput({ pods: pods('w', 3, spread(HOST)) });
    expect(summarize(run(input)).claims.map((c) => c.pods)).toEqual([['w-0'], ['w-1'], ['w-2']]);
  });

  it('spreads across capacity types', () => {
    const input = solverInput({ pods: pods('w', 4, spread('karpenter.sh/capacity-type')) });
    const r = run(input);
    const byType = r.newClaims.map((c) => [
      c.requirements.get('karpenter.sh/capacity-type')!.describe(),
      c.pods.length,
    ]);
    expect(byType).toEqual([
      ['In [on-demand]', 2],
      ['In [spot]', 2],
    ]);
  });

  it('spreads across a custom label the NodePool defines', () => {
    const pool = nodePool('default', {
      requirements: [{ key: 'example.com/rack', operator: 'In', values: ['r1', 'r2'] }],
    });
    const input = solverInput({ pods: pods('w', 4, spread('example.com/rack')), nodePools: [pool] });
    const r = run(input);
    expect(r.newClaims.map((c) => c.requirements.get('example.com/rack')!.describe())).toEqual([
      'In [r1]',
      'In [r2]',
    ]);
  });

  it('cannot spread over a label nothing defines', () => {
    const r = run(solverInput({ pods: [pod('w', spread('example.com/unknown'))] }));
    expect(summarize(r).unschedulable.w).toBe(
      'NodePool default: topology key example.com/unknown is not a label nodes get here (topology spread maxSkew 1 on example.com/unknown)',
    );
  });

  it('treats too few domains as a minimum of zero with minDomains', () => {
    const pool = nodePool('default', {
      requirements: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }],
    });
    const input = solverInput({ pods: pods('w', 3, spread(ZONE, { minDomains: 3 })), nodePools: [pool] });
    const r = run(input);
    expect(zoneCounts(input, r)).toEqual({ 'zone-a': 1, 'zone-b': 1 });
    expect(summarize(r).unschedulable['w-2']).toBe(
      'NodePool default: would violate topology spread maxSkew 1 on topology.kubernetes.io/zone (minDomains 3) (zone-a: 1, zone-b: 1)',
    );
  });

  it('relaxes ScheduleAnyway constraints when they cannot be met', () => {
    const pool = nodePool('default', { requirements: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] });
    const soft = spread(HOST, { whenUnsatisfiable: 'ScheduleAnyway' });
    const hard = spread(ZONE, { minDomains: 2 });
    const p = pods('w', 2, {
      labels: web,
      spec: {
        topologySpreadConstraints: [
          ...soft.spec.topologySpreadConstraints,
          ...hard.spec.topologySpreadConstraints,
        ],
      },
    });
    const r = run(solverInput({ pods: p, nodePools: [pool] }));
    expect(r.newClaims).toHaveLength(1);
    expect(summarize(r).unschedulable['w-1']).toContain(
      'would violate topology spread maxSkew 1 on topology.kubernetes.io/zone',
    );
  });

  it('applies matchLabelKeys: each revision spreads on its own', () => {
    const labelled = (rev: string, i: number) =>
      pod(`w-${rev}-${i}`, {
        labels: { app: 'web', rev },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: ZONE,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: web },
              matchLabelKeys: ['rev'],
            },
          ],
        },
      });
    const input = solverInput({ pods: [labelled('1', 0), labelled('1', 1), labelled('2', 0)] });
    const r = run(input);
    const zoneOf = (name: string) =>
      r.newClaims
        .find((c) => c.pods.some((p) => p.metadata.name === name))!
        .requirements.get(ZONE)!
        .describe();
    expect([zoneOf('w-1-0'), zoneOf('w-1-1'), zoneOf('w-2-0')]).toEqual([
      'In [zone-a]',
      'In [zone-b]',
      'In [zone-a]',
    ]);
  });

  it('honours node affinity when counting domains (nodeAffinityPolicy Honor)', () => {
    const p = pods('w', 4, {
      labels: web,
      nodeSelector: {},
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }] },
              ],
            },
          },
        },
        topologySpreadConstraints: spread(ZONE).spec.topologySpreadConstraints,
      },
    });
    const input = solverInput({ pods: p });
    expect(zoneCounts(input, run(input))).toEqual({ 'zone-a': 2, 'zone-b': 2 });
  });

  it('counts every zone with nodeAffinityPolicy Ignore', () => {
    const p = pods('w', 3, {
      labels: web,
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }] },
              ],
            },
          },
        },
        topologySpreadConstraints: spread(ZONE, { nodeAffinityPolicy: 'Ignore' }).spec
          .topologySpreadConstraints,
      },
    });
    const r = run(solverInput({ pods: p }));
    // zone-c stays empty but counts: a and b may hold one each.
    expect(r.newClaims).toHaveLength(2);
    expect(Object.keys(summarize(r).unschedulable)).toEqual(['w-2']);
  });

  it('leaves out domains whose taints the pod does not tolerate with nodeTaintsPolicy Honor', () => {
    const tainted = nodePool('tainted', {
      requirements: [{ key: ZONE, operator: 'In', values: ['zone-c'] }],
      taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
    });
    const open = nodePool('open', {
      requirements: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }],
    });
    const honor = pods('w', 4, spread(ZONE, { nodeTaintsPolicy: 'Honor' }));
    const r = run(solverInput({ pods: honor, nodePools: [tainted, open] }));
    expect(r.unschedulable).toEqual([]);
    const ignore = pods('w', 4, spread(ZONE));
    const r2 = run(solverInput({ pods: ignore, nodePools: [tainted, open] }));
    // zone-c counts (empty) under Ignore: only two pods fit the skew.
    expect(r2.unschedulable.map((u) => u.pod.metadata.name)).toEqual(['w-2', 'w-3']);
  });
});

describe('solve: pod affinity and anti-affinity', () => {
  const affinity = (key: string, labels: Record<string, string>, preferred = false) => {
    const term = { labelSelector: { matchLabels: labels }, topologyKey: key };
    return preferred
      ? {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }],
          },
        }
      : { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
  };
  const anti = (key: string, labels: Record<string, string>, preferred = false) => {
    const term = { labelSelector: { matchLabels: labels }, topologyKey: key };
    return preferred
      ? {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }],
          },
        }
      : { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
  };

  it('places pods in the zone of the pods they have affinity to', () => {
    const db = pod('db', { cpu: '2', labels: { app: 'db' }, nodeSelector: { [ZONE]: 'zone-b' } });
    const webs = pods('w', 2, { spec: { affinity: affinity(ZONE, { app: 'db' }) } });
    const r = run(solverInput({ pods: [db, ...webs] }));
    expect(summarize(r).claims.map((c) => [c.zone, c.pods])).toEqual([['In [zone-b]', ['db', 'w-0', 'w-1']]]);
  });

  it('follows pods already running', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-c' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const input = solverInput({
      pods: [pod('w', { spec: { affinity: affinity(ZONE, { app: 'db' }) } })],
      existing: [existing(n, [boundPod('db', 'n1', { labels: { app: 'db' }, cpu: '1', memory: '1Gi' })])],
    });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-c]');
  });

  it('cannot follow a pod that does not exist', () => {
    const r = run(solverInput({ pods: [pod('w', { spec: { affinity: affinity(ZONE, { app: 'db' }) } })] }));
    expect(summarize(r).unschedulable.w).toBe(
      'NodePool default: would violate pod affinity on topology.kubernetes.io/zone: no allowed topology.kubernetes.io/zone domain has a matching pod (zone-a: 0, zone-b: 0, zone-c: 0)',
    );
  });

  it('bootstraps self-affinity in one zone', () => {
    const p = pods('w', 3, { labels: web, spec: { affinity: affinity(ZONE, web) } });
    const r = run(solverInput({ pods: p, types: [instanceType('one', { cpu: '1', memory: '2Gi' })] }));
    expect(summarize(r).claims.map((c) => c.zone)).toEqual(['In [zone-a]', 'In [zone-a]', 'In [zone-a]']);
  });

  it('drops preferred affinity it cannot meet', () => {
    const r = run(
      solverInput({ pods: [pod('w', { spec: { affinity: affinity(ZONE, { app: 'db' }, true) } })] }),
    );
    expect(r.newClaims).toHaveLength(1);
  });

  it('keeps hostname anti-affine pods on separate nodes', () => {
    const p = pods('w', 3, { labels: web, spec: { affinity: anti(HOST, web) } });
    expect(summarize(run(solverInput({ pods: p }))).claims.map((c) => c.pods)).toEqual([
      ['w-0'],
      ['w-1'],
      ['w-2'],
    ]);
  });

  it('blocks every zone a zonally anti-affine pod may land in (Karpenter: one such pod per solve)', () => {
    const p = pods('w', 2, { labels: web, spec: { affinity: anti(ZONE, web) } });
    const r = run(solverInput({ pods: p }));
    // The claim may launch in any empty zone, so all of them are taken until it has one.
    expect(summarize(r).claims.map((c) => [c.zone, c.pods])).toEqual([
      ['In [zone-a, zone-b, zone-c]', ['w-0']],
    ]);
    expect(summarize(r).unschedulable['w-1']).toBe(
      'NodePool default: would violate pod anti-affinity on topology.kubernetes.io/zone: every allowed topology.kubernetes.io/zone domain already has a matching pod',
    );
  });

  it('keeps zonally anti-affine pods pinned to zones apart', () => {
    const p = ['zone-a', 'zone-b', 'zone-a'].map((z, i) =>
      pod(`w-${i}`, { labels: web, nodeSelector: { [ZONE]: z }, spec: { affinity: anti(ZONE, web) } }),
    );
    const r = run(solverInput({ pods: p }));
    expect(summarize(r).claims.map((c) => [c.zone, c.pods])).toEqual([
      ['In [zone-a]', ['w-0']],
      ['In [zone-b]', ['w-1']],
    ]);
    expect(Object.keys(summarize(r).unschedulable)).toEqual(['w-2']);
  });

  it('keeps new pods out of the domains of running pods that repel them', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-a' },
      allocatable: { cpu: '8', memory: '32Gi', pods: '10' },
    });
    const guard = boundPod('guard', 'n1', { labels: { app: 'guard' }, spec: { affinity: anti(ZONE, web) } });
    const input = solverInput({ pods: [pod('w', { labels: web })], existing: [existing(n, [guard])] });
    const r = run(input);
    expect(r.existing).toEqual([]);
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-b, zone-c]');
  });

  it('explains the running pod whose anti-affinity blocks a pod', () => {
    const pool = nodePool('default', { requirements: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] });
    const n = node('n1', {
      labels: { [ZONE]: 'zone-a' },
      allocatable: { cpu: '8', memory: '32Gi', pods: '10' },
    });
    const guard = boundPod('guard', 'n1', { labels: { app: 'guard' }, spec: { affinity: anti(ZONE, web) } });
    const r = run(
      solverInput({ pods: [pod('w', { labels: web })], existing: [existing(n, [guard])], nodePools: [pool] }),
    );
    expect(summarize(r).unschedulable.w).toBe(
      'NodePool default: would violate the pod anti-affinity on topology.kubernetes.io/zone of default/guard; ' +
        'existing nodes: n1: would violate the pod anti-affinity on topology.kubernetes.io/zone of default/guard',
    );
  });

  it('keeps pending pods out of the domains of pending pods that repel them', () => {
    const guard = pod('guard', { cpu: '2', labels: { app: 'guard' }, spec: { affinity: anti(HOST, web) } });
    const r = run(solverInput({ pods: [guard, pod('w', { labels: web })] }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['guard'], ['w']]);
  });

  it('looks in the namespaces a term names', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-b' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const db = boundPod('db', 'n1', { namespace: 'data', labels: { app: 'db' }, cpu: '1', memory: '1Gi' });
    const term = { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: ZONE, namespaces: ['data'] };
    const w = pod('w', {
      spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
    });
    const r = run(solverInput({ pods: [w], existing: [existing(n, [db])] }));
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-b]');
    const own = pod('w', { spec: { affinity: affinity(ZONE, { app: 'db' }) } });
    expect(run(solverInput({ pods: [own], existing: [existing(n, [db])] })).unschedulable).toHaveLength(1);
  });

  it('evaluates namespace selectors on the namespace name', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-b' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const db = boundPod('db', 'n1', { namespace: 'data', labels: { app: 'db' }, cpu: '1', memory: '1Gi' });
    const term = {
      labelSelector: { matchLabels: { app: 'db' } },
      topologyKey: ZONE,
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'data' } },
    };
    const w = pod('w', {
      spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
    });
    expect(summarize(run(solverInput({ pods: [w], existing: [existing(n, [db])] }))).claims[0]!.zone).toBe(
      'In [zone-b]',
    );
  });
});
