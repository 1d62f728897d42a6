import { describe, expect, it } from 'vitest';
import type { Pod } from '../apis/kubernetes/pod.js';
import { Labels, Taints } from '../apis/labels.js';
import { evaluateNodes } from '../disruption/decide/candidates/evaluate.js';
import { disruptionSnapshotOf } from '../disruption/decide/snapshot.js';
import { formatResourceList } from '../scheduling/resources/resource-list.js';
import { fakeInstanceType } from '../testing/fake-instance-types.js';
import { aNode } from '../testing/node-builder.js';
import { aNodeClaim } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod, aRunningPod } from '../testing/pod-builder.js';
import { buildSolverInput, type ClusterObjects } from './snapshot.js';

const SOME_TIME = '2026-01-01T00:00:00Z';
const small = fakeInstanceType({ name: 'small', cpu: '2', memory: '4Gi', price: 0.1 });
const large = fakeInstanceType({ name: 'large', cpu: '8', memory: '16Gi', price: 0.4 });
const types = new Map([['default', [small, large]]]);

const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name);

function objects(partial: Partial<ClusterObjects>): ClusterObjects {
  return { pods: [], nodes: [], nodeClaims: [], nodePools: [aNodePool()], ...partial };
}

const inFlight = (name: string) =>
  aNodeClaim({
    metadata: { name },
    spec: {
      requirements: [
        { key: Labels.NodePool, operator: 'In', values: ['default'] },
        { key: Labels.InstanceType, operator: 'In', values: ['small', 'large'] },
      ],
      resources: { requests: { cpu: '1500m', memory: '1Gi', pods: '2' } },
    },
  });

describe('buildSolverInput', () => {
  it('counts provisioner-nominated pods on their claim or node, not as pending', () => {
    const claimPod = aPod({ metadata: { name: 'on-claim' } });
    const nodePod = aPod({ metadata: { name: 'on-node' } });
    const free = aPod({ metadata: { name: 'free' } });
    const { input, ignored } = buildSolverInput(
      objects({
        pods: [claimPod, nodePod, free],
        nodes: [aNode({ metadata: { name: 'n1' } })],
        nodeClaims: [inFlight('c1')],
      }),
      types,
      {
        nominatedTo: (pod) =>
          pod.metadata.name === 'on-claim'
            ? { nodeClaim: 'c1' }
            : pod.metadata.name === 'on-node'
              ? { node: 'n1' }
              : undefined,
      },
    );
    expect(names(input.pods)).toEqual(['free']);
    expect(input.existing.map((e) => [e.name, names(e.pods)])).toEqual([
      ['c1', ['on-claim']],
      ['n1', ['on-node']],
    ]);
    expect(ignored.map((i) => i.reason)).toEqual([
      'nominated to nodeclaim/c1 by the provisioner: counted there',
      'nominated to node/n1 by the provisioner: counted there',
    ]);
  });

  it('places a pod again when the initialized node it was nominated to has no room left for it', () => {
    // kube-scheduler bound others to n1 (4 CPU): 3.5 CPU taken, so of two pods nominated there
    // only the 400m one still fits; the 1 CPU one would otherwise wait out the window.
    const others = aRunningPod('n1', {
      metadata: { name: 'bound-elsewhere-planned' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '3500m' } } }] },
    });
    const fitting = aPod({
      metadata: { name: 'still-fits' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '400m' } } }] },
    });
    const crowdedOut = aPod({
      metadata: { name: 'crowded-out' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] },
    });
    const { input, ignored } = buildSolverInput(
      objects({ pods: [others, fitting, crowdedOut], nodes: [aNode({ metadata: { name: 'n1' } })] }),
      types,
      { nominatedTo: () => ({ node: 'n1' }) },
    );
    expect(names(input.pods)).toEqual(['crowded-out']);
    expect(input.existing.map((e) => [e.name, names(e.pods)])).toEqual([
      ['n1', ['bound-elsewhere-planned', 'still-fits']],
    ]);
    expect(ignored.map((i) => i.pod)).toEqual(['default/still-fits']);
  });

  it('keeps a nomination to an in-flight claim whatever its room, as it takes no pods yet', () => {
    const big = aPod({
      metadata: { name: 'big' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '6' } } }] },
    });
    const { input } = buildSolverInput(objects({ pods: [big], nodeClaims: [inFlight('c1')] }), types, {
      nominatedTo: () => ({ nodeClaim: 'c1' }),
    });
    expect(input.pods).toEqual([]);
    expect(input.existing.map((e) => [e.name, names(e.pods)])).toEqual([['c1', ['big']]]);
  });

  it('leaves a pod out while it is nominated to a claim the objects do not show yet', () => {
    const pod = aPod();
    const { input, ignored } = buildSolverInput(objects({ pods: [pod] }), types, {
      nominatedTo: () => ({ nodeClaim: 'default-new' }),
    });
    expect(input.pods).toEqual([]);
    expect(input.existing).toEqual([]);
    expect(ignored[0]?.reason).toMatch(/nodeclaim\/default-new .* not observed yet/);
  });

  it('an in-flight claim not launched yet offers its requests and counts its largest type against limits', () => {
    const { input } = buildSolverInput(objects({ nodeClaims: [inFlight('c1')] }), types);
    expect(input.existing[0]?.nodeClaim?.status?.allocatable).toEqual({
      cpu: '1500m',
      memory: '1Gi',
      pods: '2',
    });
    expect(formatResourceList(input.nodePoolUsage!.get('default')!)).toEqual({
      cpu: '8',
      memory: '16Gi',
      nodes: '1',
      pods: '110',
    });
  });

  it('a launched claim counts its own capacity and keeps its own allocatable', () => {
    const launched = aNodeClaim({
      ...inFlight('c1'),
      status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' }, allocatable: { cpu: '1900m' } },
    });
    const { input } = buildSolverInput(objects({ nodeClaims: [launched] }), types);
    expect(input.existing[0]?.nodeClaim?.status?.allocatable).toEqual({ cpu: '1900m' });
    expect(formatResourceList(input.nodePoolUsage!.get('default')!)).toMatchObject({ cpu: '2', nodes: '1' });
  });

  it('with requireReady only Ready=True NodePools are used; the others are noted with the reason', () => {
    const ready = aNodePool({
      metadata: { name: 'ready' },
      status: {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: SOME_TIME },
        ],
      },
    });
    const unknown = aNodePool({ metadata: { name: 'fresh' } });
    const broken = aNodePool({
      metadata: { name: 'broken' },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'NodeClassNotReady',
            message: 'x',
            lastTransitionTime: SOME_TIME,
          },
        ],
      },
    });
    const all = objects({ nodePools: [ready, unknown, broken] });
    const strict = buildSolverInput(all, types, { requireReady: true });
    expect(strict.input.nodePools.map((p) => p.metadata.name)).toEqual(['ready']);
    expect(strict.notes).toEqual([
      'NodePool fresh is not used: it is not Ready yet',
      'NodePool broken is not used: it is not Ready (NodeClassNotReady)',
    ]);
    expect(strict.unusableNodePools.map((u) => u.nodePool.metadata.name)).toEqual(['fresh', 'broken']);
    expect(buildSolverInput(all, types).input.nodePools.map((p) => p.metadata.name)).toEqual([
      'ready',
      'fresh',
    ]);
  });

  it('marked nodes and claims take no new pods; bound pods stay on them', () => {
    const { input } = buildSolverInput(
      objects({
        nodes: [aNode({ metadata: { name: 'n1' } }), aNode({ metadata: { name: 'n2' } })],
        nodeClaims: [inFlight('c1')],
        pods: [aRunningPod('n1')],
      }),
      types,
      { markedForDeletion: new Set(['n1', 'c1']) },
    );
    expect(input.existing.map((e) => [e.name, e.markedForDeletion, e.pods.length])).toEqual([
      ['c1', true, 0],
      ['n1', true, 1],
      ['n2', false, 0],
    ]);
  });

  it('gives a usable NodePool without instance types an empty list, and passes solver options', () => {
    const { input } = buildSolverInput(objects({}), new Map(), { solverOptions: { maxInstanceTypes: 5 } });
    expect(input.instanceTypes.get('default')).toEqual([]);
    expect(input.options).toEqual({ maxInstanceTypes: 5 });
  });
});

describe('buildSolverInput: a Node still registering', () => {
  // A new leader adopting a launch its predecessor did not record: the instance's Node has
  // registered with the unregistered taint while its claim has no providerID yet, so the two are
  // not paired. Taken for an initialized node, it would look empty to disruption.
  const launchedNode = (taints: { key: string; effect: 'NoExecute' | 'NoSchedule' }[]) =>
    aNode({
      metadata: { name: 'ip-10-0-0-18', labels: { [Labels.NodePool]: 'default' } },
      spec: { providerID: 'aws:///zone-a/i-17', taints },
    });

  it('is not initialized while it carries karpenter.sh/unregistered, so disruption leaves it alone', () => {
    const { input } = buildSolverInput(
      objects({ nodes: [launchedNode([{ ...Taints.Unregistered }])], nodeClaims: [inFlight('c1')] }),
      types,
    );
    const node = input.existing.find((e) => e.name === 'ip-10-0-0-18');
    expect(node?.initialized).toBe(false);
    const [evaluation] = evaluateNodes(
      disruptionSnapshotOf(input, { nodePools: [aNodePool()], podDisruptionBudgets: [] }),
      Date.parse(SOME_TIME),
    );
    expect(evaluation?.blockedBy).toBe('node is not initialized yet');
  });

  it('a Node without a NodeClaim and without the taint is taken as initialized (unmanaged by a claim)', () => {
    const { input } = buildSolverInput(objects({ nodes: [launchedNode([])] }), types);
    expect(input.existing[0]?.initialized).toBe(true);
  });
});
