import { EC2NodeClasses, ec2NodeClassKind } from '@nodewright/aws';
import { KubeletHarness } from '@nodewright/conformance/harness';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import {
  CapacityTypes,
  type KindDefinition,
  type NodeClaim,
  type NodePool,
  nodeClaimKind,
  nodePoolKind,
} from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import type { CloudProvider, OfferingKey, RepairPolicy } from '@nodewright/core/cloudprovider';
import type { ClientNodeCluster } from '@nodewright/core/kube';
import { NodeClaims, NodePools, Nodes } from '@nodewright/core/kube';
import { EventReasons, lifecycleControllers, lifecycleMetrics } from '@nodewright/core/lifecycle';
import { createLogger, Manager, type ProviderInstance } from '@nodewright/core/operator';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type E2EEnvironment, startE2EEnvironment } from './src/e2e/environment.js';
import { ContractClaims } from './src/provider-contract/contract-claims.js';
import { contractCluster } from './src/provider-contract/contract-cluster.js';
import { awsProviderOnMock } from './src/providers/aws-harness.js';
import { waitUntil } from './src/wait-until.js';

// Issue 14 item 6, the fault test: node repair on a real control plane of its own (etcd,
// kube-apiserver, kube-controller-manager, kwok). Core's lifecycle controllers, node.health
// among them, drive the real AWS provider against the wire mock through ClientNodeCluster; the
// kubelet harness registers a Node per instance and holds those of one instance type at
// Ready=False (kwok keeps the others Ready). The provider's 30-minute toleration is shortened
// to 15 s so the test runs in real time. Two of five Nodes sick: over 20 % of the pool, nothing
// is repaired and the blocked repair is reported. One of them removed: one of four sick is
// within 20 %, and the other is repaired — its NodeClaim deleted, its instance terminated.

const provided = inject('nodewrightCluster');
const ClusterName = 'node-repair';
const TolerationMs = 15_000;
const ShortPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: TolerationMs },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: TolerationMs },
];

let e2e: E2EEnvironment | undefined;
let cluster: ClientNodeCluster | undefined;
let mock: AwsMock | undefined;
let provider: ProviderInstance | undefined;
let manager: Manager | undefined;
let harness: KubeletHarness | undefined;

afterEach(async () => {
  harness?.stop();
  await manager?.stop();
  await provider?.close?.();
  await mock?.close();
  cluster?.close();
  await e2e?.stop();
});

/** The provider as it is, but with the test's short repair policies. */
function withPolicies(cloud: CloudProvider, policies: readonly RepairPolicy[]): CloudProvider {
  return new Proxy(cloud, {
    get(target, prop) {
      if (prop === 'repairPolicies') return () => policies;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(provided.external)('node repair on the real control plane', () => {
  it('holds repair while over 20 % of the pool is NotReady, then replaces the NotReady node past its toleration', async () => {
    e2e = await startE2EEnvironment({ name: 'node-repair' });
    cluster = await contractCluster({
      kubeconfigPath: e2e.kubeconfigPath,
      fieldManager: 'node-repair',
      nodeClassKinds: [ec2NodeClassKind, nodePoolKind, nodeClaimKind] as KindDefinition[],
      nodeClassTypes: [EC2NodeClasses, NodePools, NodeClaims],
    });
    const clock = new SystemClock();
    const timers = new SystemTimers();
    const logger = createLogger({ level: 'silent' });
    mock = await startAwsMock({ cluster: ClusterName, timings: { startMs: 0 } });
    const composed = await awsProviderOnMock({
      mock,
      cluster,
      clusterName: ClusterName,
      clock,
      timers,
      logger,
      nodePoolName: 'default',
    });
    provider = composed.instance;
    const { registry, events } = composed;
    const pool = composed.pool as NodePool;
    const offerings = (await provider.cloudProvider.getInstanceTypes(pool))
      .flatMap((t) => t.offerings.map((o) => ({ o, type: t.name })))
      .filter(({ o }) => o.available && o.capacityType === CapacityTypes.OnDemand)
      .map(
        ({ o, type }): OfferingKey => ({
          capacityType: CapacityTypes.OnDemand,
          instanceType: type,
          zone: o.zone,
        }),
      );
    const sick = offerings[0] as OfferingKey;
    const healthy = offerings.find((o) => o.instanceType !== sick.instanceType) as OfferingKey;

    manager = new Manager({ cluster, clock, timers, registry, logger });
    manager.register(
      ...provider.controllers,
      ...lifecycleControllers(
        {
          cluster,
          cloudProvider: withPolicies(provider.cloudProvider, ShortPolicies),
          clock,
          events,
          metrics: lifecycleMetrics(registry),
        },
        { health: { blockedRecheckMs: 2_000 } },
      ),
    );
    manager.start();
    await manager.synced();
    harness = new KubeletHarness({
      cluster,
      source: mock.instances,
      timers,
      clock,
      bootDelayMs: 1_000,
      holdNotReady: (i) => i.instanceType === sick.instanceType,
    });
    await harness.start();

    const claims = new ContractClaims(pool);
    const sickNames: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await cluster.create(NodeClaims, claims.pinned(i < 2 ? sick : healthy));
      if (i < 2) sickNames.push(created.metadata.name ?? '');
    }
    const list = async () => (await cluster!.list(NodeClaims)).items as NodeClaim[];
    const registered = (c: NodeClaim) =>
      c.status?.conditions?.some((x) => x.type === 'Registered' && x.status === 'True') === true;
    await waitUntil(list, (all) => all.length === 5 && all.every(registered), {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: 'five registered NodeClaims',
    });
    const sickSince = performance.now();

    // Two of five NotReady: more than 20 % (1 node) of the pool; past the toleration, nothing is repaired.
    await waitUntil(
      async () => events.withReason(EventReasons.NodeRepairBlocked).length,
      (n) => n >= 2,
      { timeoutMs: TolerationMs + 30_000, intervalMs: 250, what: 'NodeRepairBlocked events' },
    );
    const blockedAfterMs = performance.now() - sickSince;
    await sleep(3_000);
    const deletingWhileBlocked = (await list()).filter((c) => c.metadata.deletionTimestamp !== undefined);
    const blockedMessage = events.withReason(EventReasons.NodeRepairBlocked)[0]?.message ?? '';

    // The operator removes one of them: one of four is within 20 %, and the other is repaired.
    const [removed, repaired] = sickNames as [string, string];
    await cluster.delete(NodeClaims, { name: removed });
    const removedAt = performance.now();
    await waitUntil(
      async () => (await list()).find((c) => c.metadata.name === repaired),
      (c) => c === undefined || c.metadata.deletionTimestamp !== undefined,
      { timeoutMs: 60_000, intervalMs: 250, what: `NodeClaim ${repaired} to be deleted by node repair` },
    );
    const repairedAfterMs = performance.now() - removedAt;
    await waitUntil(list, (all) => all.every((c) => !sickNames.includes(c.metadata.name ?? '')), {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: 'the sick NodeClaims to be gone',
    });
    const goneAfterMs = performance.now() - removedAt;
    const nodes = (await cluster.list(Nodes)).items;
    const left = await list();
    const repairEvents = events.withReason(EventReasons.NodeRepair);
    const result = {
      toleranceMs: TolerationMs,
      poolNodes: 5,
      notReady: 2,
      blockedReportedAfterMs: Math.round(blockedAfterMs),
      claimsDeletedWhileBlocked: deletingWhileBlocked.length,
      repairedAfterRemovalMs: Math.round(repairedAfterMs),
      sickClaimsGoneAfterRemovalMs: Math.round(goneAfterMs),
      claimsLeft: left.length,
      nodesLeft: nodes.length,
      repairEvents: repairEvents.length,
    };
    console.log(`node repair fault: ${JSON.stringify(result)}`);

    expect(deletingWhileBlocked, 'nothing repaired while 2 of 5 are NotReady').toEqual([]);
    expect(blockedMessage).toContain('2 of 5 nodes in the NodePool are unhealthy, more than the 1 (20 %)');
    expect(repairEvents.map((e) => `${e.object.kind}/${e.object.metadata.name}`)).toContain(
      `NodeClaim/${repaired}`,
    );
    expect(left.map((c) => c.metadata.name).sort()).toHaveLength(3);
    expect(nodes).toHaveLength(3);
    expect(await registry.getSingleMetric('karpenter_nodeclaims_disrupted_total')?.get()).toMatchObject({
      values: [
        expect.objectContaining({ value: 1, labels: expect.objectContaining({ reason: 'unhealthy' }) }),
      ],
    });
    const live = [...mock.ec2.instances.values()].filter(
      (i) => i.state === 'running' || i.state === 'pending',
    );
    expect(live.map((i) => i.instanceType)).toEqual([
      healthy.instanceType,
      healthy.instanceType,
      healthy.instanceType,
    ]);
  }, 300_000);
});
