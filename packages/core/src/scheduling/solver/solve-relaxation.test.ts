import { describe, expect, it } from 'vitest';
import { nodeClaimSchema } from '../../apis/v1/nodeclaim.js';
import { checkSolution } from '../checker/check-solution.js';
import { formatResourceList } from '../resources/resource-list.js';
import { solve } from './solve.js';
import {
  boundPod,
  daemonSet,
  existing,
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
const term = (key: string) => ({ labelSelector: { matchLabels: web }, topologyKey: key });

describe('solve: relaxation of pod preferences', () => {
  it('keeps preferred anti-affinity while it can, and gives it up when it cannot', () => {
    const anti = {
      labels: web,
      spec: {
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, podAffinityTerm: term(HOST) }],
          },
        },
      },
    };
    const free = run(solverInput({ pods: pods('w', 2, anti) }));
    expect(summarize(free).claims.map((c) => c.pods)).toEqual([['w-0'], ['w-1']]);
    const oneNode = run(
      solverInput({ pods: pods('w', 2, anti), nodePools: [nodePool('default', { limits: { nodes: '1' } })] }),
    );
    expect(summarize(oneNode).claims.map((c) => c.pods)).toEqual([['w-0', 'w-1']]);
  });

  it('gives up preferred pod affinity it cannot meet', () => {
    const aff = {
      spec: {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term(ZONE) }],
          },
        },
      },
    };
    const r = run(solverInput({ pods: [pod('lonely', aff)] }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['lonely']]);
  });

  it('follows preferred pod affinity when it can', () => {
    const n = node('n1', {
      labels: { [ZONE]: 'zone-c' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const aff = {
      spec: {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term(ZONE) }],
          },
        },
      },
    };
    const r = run(
      solverInput({
        pods: [pod('p', aff)],
        existing: [existing(n, [boundPod('w', 'n1', { labels: web, cpu: '1', memory: '1Gi' })])],
      }),
    );
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-c]');
  });

  it('treats ScheduleAnyway spread as required until relaxed', () => {
    const soft = {
      labels: web,
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: web },
          },
        ],
      },
    };
    const r = run(solverInput({ pods: pods('w', 3, soft) }));
    expect(summarize(r).claims.map((c) => c.zone)).toEqual(['In [zone-a]', 'In [zone-b]', 'In [zone-c]']);
    const pinned = nodePool('default', { limits: { nodes: '1' } });
    const r2 = run(solverInput({ pods: pods('w', 3, soft), nodePools: [pinned] }));
    expect(summarize(r2).claims.map((c) => c.pods)).toEqual([['w-0', 'w-1', 'w-2']]);
  });
});

describe('solve: more capacity cases', () => {
  it('counts a DaemonSet that tolerates the NodePool taints', () => {
    const pool = nodePool('default', { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] });
    const ds = daemonSet('agent', { cpu: '1', spec: { tolerations: [{ operator: 'Exists' }] } });
    const p = pod('p', { cpu: '1500m', spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } });
    const r = run(solverInput({ pods: [p], nodePools: [pool], daemonSets: [ds] }));
    expect(formatResourceList(r.newClaims[0]!.requests).cpu).toBe('2500m');
  });

  it('narrows an in-flight NodeClaim that allows several zones as pods join it', () => {
    const claim = nodeClaimSchema.parse({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'inflight', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }],
      },
      status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
    });
    const input = solverInput({
      pods: [
        pod('b', { nodeSelector: { [ZONE]: 'zone-b' } }),
        pod('a', { cpu: '500m', nodeSelector: { [ZONE]: 'zone-a' } }),
      ],
      existing: [{ name: 'inflight', nodeClaim: claim, pods: [], initialized: false }],
    });
    const r = run(input);
    expect(summarize(r).existing).toEqual({ inflight: ['b'] });
    expect(summarize(r).claims.map((c) => [c.pods, c.zone])).toEqual([[['a'], 'In [zone-a]']]);
  });

  it('counts pods on existing nodes for hostname spread', () => {
    const n = node('n1', { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } });
    const spread = {
      labels: web,
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: HOST,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: web },
          },
        ],
      },
    };
    const r = run(
      solverInput({
        pods: pods('w', 2, spread),
        existing: [existing(n, [boundPod('old', 'n1', { labels: web })])],
      }),
    );
    expect(r.existing).toEqual([]);
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['w-0'], ['w-1']]);
  });
});
