import { nodeClaimKind, nodePoolKind } from '@nodewright/core/apis';
import { CatalogProviders } from '@nodewright/core/catalog';
import { FakeClock } from '@nodewright/core/clock';
import { computeDisruption } from '@nodewright/core/disruption';
import { Nodes, Pods, resourceTypeOf } from '@nodewright/core/kube';
import { solve } from '@nodewright/core/scheduling';
import { kwokCatalogProvider, kwokNodeClassKind } from '@nodewright/kwok';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { UsageError } from '../command.js';
import { createCliServices } from '../compose.js';
import { nodeClassCatalogsOf } from '../live/default-catalogs.js';
import type { ClusterConnector } from '../live/live-cluster.js';
import { fakeIo } from '../testing/fake-io.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { createAll, memoryCluster, memoryConnector } from '../testing/memory-live-cluster.js';
import type { WhyNodeReport } from '../why/why-node.js';
import type { WhyPodReport } from '../why/why-pod.js';
import { createWhyCommand } from './why.js';

const Now = '2026-01-01T01:00:00Z';

const objects = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: zonal}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
        - {key: topology.kubernetes.io/zone, operator: In, values: [test-zone-a, test-zone-b]}
  limits: {cpu: "1000"}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: tainted}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements: []
      taints: [{key: team, value: x, effect: NoSchedule}]
---
apiVersion: karpenter.kwok.sh/v1alpha1
kind: KWOKNodeClass
metadata: {name: default}
---
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-1
  labels:
    karpenter.sh/nodepool: zonal
    karpenter.sh/initialized: "true"
    karpenter.sh/registered: "true"
    node.kubernetes.io/instance-type: c-4x-amd64-linux
    topology.kubernetes.io/zone: test-zone-a
    karpenter.sh/capacity-type: on-demand
    kubernetes.io/arch: amd64
    kubernetes.io/os: linux
    kubernetes.io/hostname: kwok-node-1
spec: {providerID: "kwok://kwok-node-1"}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
  conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2026-01-01T00:00:00Z"}]
---
apiVersion: v1
kind: Pod
metadata:
  name: keep
  namespace: default
  annotations: {karpenter.sh/do-not-disrupt: "true"}
spec:
  nodeName: kwok-node-1
  containers: [{name: a, image: a, resources: {requests: {cpu: 100m, memory: 100Mi}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: far, namespace: default}
spec:
  nodeSelector: {topology.kubernetes.io/zone: test-zone-d}
  containers: [{name: a, image: a, resources: {requests: {cpu: "6", memory: 1Gi}}}]
status:
  phase: Pending
  conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]
`;

const types = [
  resourceTypeOf(nodePoolKind),
  resourceTypeOf(nodeClaimKind),
  resourceTypeOf(kwokNodeClassKind),
  Nodes,
  Pods,
];

function command(connect: ClusterConnector) {
  return createWhyCommand({
    catalogs: new CatalogProviders([kwokCatalogProvider]),
    solve,
    clock: new FakeClock(Date.parse(Now)),
    computeDisruption,
    live: { connect, nodeClassCatalogs: nodeClassCatalogsOf(InTreeProviders) },
  });
}

async function run(connect: ClusterConnector, argv: string[]) {
  const io = fakeIo('/');
  const why = command(connect);
  let code: number;
  try {
    code = await why.run(parseCommandArgs(argv, why.options, why.positionals), {
      io,
      services: createCliServices(InTreeProviders),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    code = 2;
  }
  return { code, out: io.out(), err: io.err() };
}

describe('nodewright why (live cluster through the read-only port)', () => {
  let connect: ReturnType<typeof memoryConnector>;
  beforeEach(async () => {
    const cluster = memoryCluster();
    await createAll(cluster, objects, types);
    connect = memoryConnector(cluster);
  });

  it('explains a pending pod per NodePool, with the cheapest type that would fit, using the NodeClass provider catalog', async () => {
    const { code, out, err } = await run(connect, ['pod', 'default/far', '-o', 'json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as WhyPodReport;
    expect(report.verdict).toBe('unschedulable');
    // In the order the solver tries them: by weight, then name.
    expect(report.nodePools).toEqual([
      { nodePool: 'tainted', verdict: 'ruled-out', reason: 'taint team=x:NoSchedule not tolerated' },
      {
        nodePool: 'zonal',
        verdict: 'ruled-out',
        reason:
          'requires topology.kubernetes.io/zone In [test-zone-d], NodePool allows In [test-zone-a, test-zone-b]',
      },
    ]);
    // 6 CPUs in test-zone-d: the 8-CPU compute type is the cheapest that holds it there.
    expect(report.cheapestFit).toMatchObject({ instanceType: 'c-8x-amd64-linux', zone: 'test-zone-d' });
    expect(report.cheapestFit!.pricePerHour).toBeGreaterThan(0);
    expect(report.existingNodes).toBe('kwok-node-1: not enough cpu');
    expect(report.notes).toContain(
      "no --catalog given: using the kwok catalog, of the NodePools' NodeClass provider",
    );
    expect(Object.keys(report).slice(0, 3)).toEqual(['pod', 'verdict', 'summary']);
    expect(connect.targets).toEqual([{}]);
  });

  it("shows the newest Events about the object, in Karpenter's reasons", async () => {
    const cluster = memoryCluster();
    await createAll(cluster, objects, types);
    await cluster.createEvent({
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'far', namespace: 'default' },
      type: 'Warning',
      reason: 'FailedScheduling',
      message: 'Failed to schedule pod, NodePool zonal: requires ...',
      source: { component: 'karpenter' },
    });
    await cluster.createEvent({
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'keep', namespace: 'default' },
      type: 'Normal',
      reason: 'Nominated',
      message: 'not this pod',
    });
    const { out } = await run(memoryConnector(cluster), ['pod', 'default/far']);
    expect(out).toMatch(
      /^Events:\n {2}\S+ {2}Warning {2}FailedScheduling {2}karpenter: Failed to schedule pod, NodePool zonal: requires \.\.\.$/m,
    );
    expect(out).not.toMatch(/not this pod/);
    const json = JSON.parse(
      (await run(memoryConnector(cluster), ['pod', 'default/far', '-o', 'json'])).out,
    ) as WhyPodReport;
    expect(json.events).toEqual([
      expect.objectContaining({ reason: 'FailedScheduling', type: 'Warning', count: 1 }),
    ]);
    const denied = memoryConnector(cluster, { forbidden: ['events'] });
    const without = JSON.parse((await run(denied, ['pod', 'default/far', '-o', 'json'])).out) as WhyPodReport;
    expect(without.events).toEqual([]);
    expect(without.notes).toContain('the Events of Pod far were not read (forbidden)');
  });

  it('explains a pod a NodePool limit rules out, and a NodePool that is not Ready', async () => {
    const cluster = memoryCluster();
    await createAll(
      cluster,
      objects
        .replace('limits: {cpu: "1000"}', 'limits: {cpu: "5"}')
        .replace('test-zone-d', 'test-zone-a')
        .replace(
          'taints: [{key: team, value: x, effect: NoSchedule}]',
          'taints: [{key: team, value: x, effect: NoSchedule}]\nstatus:\n  conditions: [{type: Ready, status: "False", reason: NodeClassNotReady, message: x, lastTransitionTime: "2026-01-01T00:00:00Z"}]',
        ),
      types,
    );
    const { code, out } = await run(memoryConnector(cluster), ['pod', 'far', '-n', 'default']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Pod default\/far: unschedulable: the only usable NodePool rules it out$/m);
    expect(out).toMatch(/^zonal +ruled out +exceeds its limits: .*cpu/m);
    expect(out).toMatch(/^tainted +not used +it is not Ready \(NodeClassNotReady\)$/m);
    expect(out).toMatch(
      /^Cheapest fit: c-8x-amd64-linux in test-zone-a \(spot\) at \$[0-9.]+\/h, if a NodePool allowed it$/m,
    );
  });

  it('says why no type would hold a pod whatever the NodePool', async () => {
    const cluster = memoryCluster();
    await createAll(
      cluster,
      objects.replace('requests: {cpu: "6", memory: 1Gi}', 'requests: {cpu: "600", memory: 1Gi}'),
      types,
    );
    const report = JSON.parse(
      (await run(memoryConnector(cluster), ['pod', 'default/far', '-o', 'json'])).out,
    ) as WhyPodReport;
    expect(report.cheapestFit).toBeNull();
    // The open NodePool's reason alone: existing nodes are explained apart.
    expect(report.cheapestFitReason).toMatch(/^no instance type has 600 cpu \(largest offers \d+m?\)$/);
  });

  it('says where a pod that fits goes, and that a bound pod is not pending', async () => {
    const cluster = memoryCluster();
    await createAll(cluster, objects.replace('test-zone-d', 'test-zone-b'), types);
    const fits = JSON.parse(
      (await run(memoryConnector(cluster), ['pod', 'default/far', '-o', 'json'])).out,
    ) as WhyPodReport;
    expect(fits.verdict).toBe('would-launch');
    expect(fits.nodeClaim?.nodePool).toBe('zonal');
    expect(fits.nodePools.map((p) => [p.nodePool, p.verdict])).toEqual([
      ['tainted', 'not-needed'],
      ['zonal', 'chosen'],
    ]);
    const bound = await run(connect, ['pod', 'default/keep']);
    expect(bound.out.split('\n')[0]).toBe(
      'Pod default/keep: not pending: it is bound to node kwok-node-1 (phase Running)',
    );
    expect(bound.out).not.toMatch(/Cheapest fit/);
  });

  it('explains why a node is not consolidated: a do-not-disrupt pod, with its NodePool budgets and price', async () => {
    const { code, out, err } = await run(connect, ['node', 'kwok-node-1', '-o', 'json', '--now', Now]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as WhyNodeReport;
    expect(report).toMatchObject({
      node: 'kwok-node-1',
      nodePool: 'zonal',
      managed: true,
      summary: 'not disrupted: pod default/keep has karpenter.sh/do-not-disrupt',
      disruption: { disruptable: false, blockedBy: 'pod default/keep has karpenter.sh/do-not-disrupt' },
      consolidation: { policy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s' },
      now: Now,
    });
    expect(report.disruption?.pricePerHour).toBeGreaterThan(0);
    expect(report.budgets).toContainEqual({ reason: 'Underutilized', nodes: 1, allowed: 1 });
  });

  it('says what consolidation found without the do-not-disrupt pod: no cheaper replacement, with the prices', async () => {
    const cluster = memoryCluster();
    await createAll(
      cluster,
      objects.replace('annotations: {karpenter.sh/do-not-disrupt: "true"}', 'annotations: {}'),
      types,
    );
    const { out } = await run(memoryConnector(cluster), ['node', 'kwok-node-1', '--now', Now]);
    // The pod needs 100m: a smaller type replaces the 4-CPU node, which a command takes.
    expect(out).toMatch(
      /^Node kwok-node-1 \(NodePool zonal\): being disrupted: single-node-consolidation \(Underutilized\) would have it replaced by 1 new NodeClaim\(s\), saving \$[0-9.]+\/h$/m,
    );
  });

  it('treats a node without the nodepool label as unmanaged', async () => {
    const cluster = memoryCluster();
    await createAll(cluster, objects.replace('    karpenter.sh/nodepool: zonal\n', ''), types);
    const report = JSON.parse(
      (await run(memoryConnector(cluster), ['node', 'kwok-node-1', '-o', 'json'])).out,
    ) as WhyNodeReport;
    expect(report.managed).toBe(false);
    expect(report.nodePool).toBeNull();
  });

  it('exits 1 with a plain message for an unknown pod or node, a refused permission and an unreachable server', async () => {
    expect(await run(connect, ['pod', 'default/nope'])).toEqual({
      code: 1,
      out: '',
      err: 'nodewright why: pod default/nope not found\n',
    });
    expect((await run(connect, ['node', 'nope'])).err).toBe('nodewright why: node nope not found\n');
    const cluster = memoryCluster();
    const forbidden = await run(memoryConnector(cluster, { forbidden: ['nodes'] }), ['node', 'x']);
    expect(forbidden.code).toBe(1);
    expect(forbidden.err).toMatch(
      /^nodewright: forbidden: cannot list nodes in context memory: .*; grant list on nodes \(see "RBAC" in docs\/cli.md\)\n$/,
    );
    const down = await run(memoryConnector(cluster, { unreachable: true }), ['pod', 'a/b']);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(
      /^nodewright: cannot reach the API server of context memory: .*connection refused\n$/,
    );
    expect(down.err).not.toMatch(/ at /);
  });

  it('carries on without PersistentVolumes, StorageClasses and NodeClasses it may not read, saying so', async () => {
    const cluster = memoryCluster();
    await createAll(cluster, objects, types);
    const limited = memoryConnector(cluster, {
      forbidden: ['persistentvolumes', 'storageclasses.storage.k8s.io', 'kwoknodeclasses.karpenter.kwok.sh'],
    });
    const report = JSON.parse((await run(limited, ['pod', 'default/far', '-o', 'json'])).out) as WhyPodReport;
    expect(report.verdict).toBe('unschedulable');
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'cannot list persistentvolumes (forbidden): volume topology of bound claims is not honoured',
        'cannot list storageclasses.storage.k8s.io (forbidden): volume topology of bound claims is not honoured',
        'cannot list kwoknodeclasses.karpenter.kwok.sh (forbidden): NodeClasses of kind KWOKNodeClass were not read',
      ]),
    );
  });

  it('leaves out a cluster object the schemas refuse, with a note, and still answers', async () => {
    const cluster = memoryCluster();
    await createAll(
      cluster,
      `${objects}---
apiVersion: v1
kind: Pod
metadata: {name: odd, namespace: default}
spec:
  containers: [{name: a, image: a, resources: {requests: {cpu: lots}}}]
`,
      types,
    );
    const { code, out, err } = await run(memoryConnector(cluster), ['pod', 'default/far', '-o', 'json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as WhyPodReport;
    expect(report.verdict).toBe('unschedulable');
    expect(
      report.notes.find((n) => n.startsWith('Pod/odd left out: spec.containers[0].resources.requests.cpu: ')),
    ).toBeDefined();
    expect((await run(memoryConnector(cluster), ['pod', 'default/odd'])).err).toMatch(
      /^nodewright why: pod default\/odd cannot be explained: Pod\/odd left out: spec\.containers\[0\]\.resources\.requests\.cpu: /,
    );
  });

  it('passes --kubeconfig and --context to the connector and refuses a bad line with exit 2', async () => {
    await run(connect, ['pod', 'default/far', '--kubeconfig', '/k', '--context', 'c']);
    expect(connect.targets.at(-1)).toEqual({ kubeconfig: '/k', context: 'c' });
    expect((await run(connect, ['deployment', 'x'])).code).toBe(2);
    expect((await run(connect, ['pod', 'a/b/c'])).code).toBe(2);
    expect((await run(connect, ['pod', 'a/b', '-n', 'c'])).code).toBe(2);
    expect((await run(connect, ['pod'])).code).toBe(2);
  });
});
