import { describe, expect, it } from 'vitest';
import {
  boundPod,
  existing,
  instanceType,
  node,
  pod,
  pods,
  solveChecked,
  solverInput,
  summarize,
} from './testing/index.js';
import type { SolverInput } from './types.js';

const run = (input: SolverInput) => summarize(solveChecked(input));

const ZONE = 'topology.kubernetes.io/zone';
const web = { app: 'web' };
const spread = {
  labels: web,
  spec: {
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: ZONE,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: web },
      },
    ],
  },
};
const affinity = {
  labels: web,
  spec: {
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: ZONE, labelSelector: { matchLabels: web } },
        ],
      },
    },
  },
};

/** Types offered in zone-a..c whose zone-a offerings are all unavailable (an ICE, say). */
const noZoneA = [
  instanceType('small', {
    cpu: '2',
    memory: '4Gi',
    price: 0.1,
    unavailable: ['on-demand/zone-a', 'spot/zone-a'],
  }),
  instanceType('large', {
    cpu: '16',
    memory: '64Gi',
    price: 0.8,
    unavailable: ['on-demand/zone-a', 'spot/zone-a'],
  }),
];

/** A full node in zone-a: it makes zone-a a domain, which no type is offered in. */
const fullNodeInZoneA = (bound: ReturnType<typeof boundPod>[] = []) =>
  existing(
    node('n-a', { labels: { [ZONE]: 'zone-a' }, allocatable: { cpu: '0', memory: '0', pods: '0' } }),
    bound,
  );

describe('solve: topology falls back to domains that can be launched', () => {
  it('a spread skips the least-populated zone when no type is offered there', () => {
    const input = solverInput({
      pods: pods('w', 2, spread),
      existing: [fullNodeInZoneA()],
      types: [instanceType('small', { cpu: '2', memory: '4Gi', price: 0.1, zones: ['zone-b', 'zone-c'] })],
    });
    expect(run(input).claims.map((c) => [c.zone, c.pods])).toEqual([
      ['In [zone-b]', ['w-0']],
      ['In [zone-c]', ['w-1']],
    ]);
  });

  it('a spread skips a zone whose offerings are unavailable', () => {
    const input = solverInput({ pods: pods('w', 2, spread), types: noZoneA });
    expect(run(input).claims.map((c) => [c.zone, c.pods])).toEqual([
      ['In [zone-b]', ['w-0']],
      ['In [zone-c]', ['w-1']],
    ]);
  });

  it('when maxSkew leaves only the unlaunchable zone, the pod is refused naming that zone', () => {
    const input = solverInput({ pods: pods('w', 3, spread), types: noZoneA });
    const r = run(input);
    expect(r.claims.map((c) => c.zone)).toEqual(['In [zone-b]', 'In [zone-c]']);
    expect(r.unschedulable).toEqual({
      'w-2':
        'NodePool default: topology needs topology.kubernetes.io/zone In [zone-a], where no instance type that fits has an available offering',
    });
  });

  it('a spread pod joins an open claim in the next zone when the first has no offering', () => {
    // The big pod opens a claim free to land in any zone; the spread pod narrows it to zone-b.
    const input = solverInput({
      pods: [pod('big', { cpu: '8' }), pod('w', { ...spread, cpu: '1' })],
      types: noZoneA,
    });
    expect(run(input).claims.map((c) => [c.zone, c.pods])).toEqual([['In [zone-b]', ['big', 'w']]]);
  });

  it('a self-selecting affinity starts its group in the first zone it can launch into', () => {
    const input = solverInput({ pods: pods('w', 2, affinity), types: noZoneA });
    expect(run(input).claims.map((c) => [c.zone, c.pods])).toEqual([['In [zone-b]', ['w-0', 'w-1']]]);
  });

  it('affinity to pods in a zone without offerings explains which zone it needs', () => {
    const input = solverInput({
      pods: [pod('w', affinity)],
      existing: [fullNodeInZoneA([boundPod('w-old', 'n-a', { labels: web })])],
      types: noZoneA,
    });
    expect(run(input).unschedulable).toEqual({
      w: 'NodePool default: topology needs topology.kubernetes.io/zone In [zone-a], where no instance type that fits has an available offering; existing nodes: n-a: not enough cpu',
    });
  });
});
