import { EC2NodeClasses } from '@nodewright/aws';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import { CapacityTypes, type NodeClaim, type NodePool } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import type { OfferingKey } from '@nodewright/core/cloudprovider';
import { InternalError, MemoryCluster, NodeClaims, NodePools } from '@nodewright/core/kube';
import { interruptionController, lifecycleMetrics } from '@nodewright/core/lifecycle';
import { createLogger, Manager, type ProviderInstance } from '@nodewright/core/operator';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractClaims } from './src/provider-contract/contract-claims.js';
import { awsProviderOnMock } from './src/providers/aws-harness.js';

// Issue 14 item 7, the fault test: 300 spot interruption warnings land on the SQS queue at once,
// with a message that is not JSON and one whose handling always throws (the apiserver refuses to
// delete its NodeClaim). Core's interruption controller drives the real AWS provider's SQS
// source (the SDK over HTTP) against the wire mock, on real time. Within 30 s every interrupted
// NodeClaim is deleted, every SQS message is deleted exactly once, the unavailable-offerings
// cache holds every interrupted offering, and the poisoned message is dropped, not redelivered.

const Notices = 300;
/** Distinct spot offerings the instances spread over, so the cache is checked per offering. */
const Offerings = 12;
const DeadlineMs = 30_000;
const ClusterName = 'interruption-storm';

let mock: AwsMock | undefined;
let provider: ProviderInstance | undefined;
let manager: Manager | undefined;

afterEach(async () => {
  await manager?.stop();
  await provider?.close?.();
  await mock?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const offeringId = (o: OfferingKey) => `${o.capacityType}/${o.instanceType}/${o.zone}`;

/** Runs `work` over `items`, `limit` at a time (the launches before the storm). */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(work));
}

describe('aws: an interruption storm on the SQS queue', () => {
  it('300 spot notices at once are all acted on within 30 s, each message deleted exactly once, a poisoned one dropped', async () => {
    const clock = new SystemClock();
    const timers = new SystemTimers();
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    mock = await startAwsMock({ cluster: ClusterName, timings: { startMs: 0 } });
    const cluster = new MemoryCluster({ clock, kinds: [NodePools, NodeClaims, EC2NodeClasses] });
    const composed = await awsProviderOnMock({
      mock,
      cluster,
      clusterName: ClusterName,
      clock,
      timers,
      logger,
      settings: { interruptionQueue: mock.interruptionQueue.name },
      nodePoolName: 'default',
    });
    provider = composed.instance;
    const { registry, events, unavailableOfferings } = composed;
    const pool = composed.pool as NodePool;

    // The instances: spot, spread over a dozen offerings, launched by the provider's CreateFleet.
    const spot = (await provider.cloudProvider.getInstanceTypes(pool))
      .flatMap((t) => t.offerings.map((o) => ({ o, type: t.name })))
      .filter(({ o }) => o.available && o.capacityType === CapacityTypes.Spot)
      .slice(0, Offerings)
      .map(({ o, type }) => ({ capacityType: CapacityTypes.Spot, instanceType: type, zone: o.zone }));
    expect(spot).toHaveLength(Offerings);
    const claims = new ContractClaims(pool);
    const launched: NodeClaim[] = [];
    await inBatches([...Array(Notices + 1).keys()], 20, async (i) => {
      const offering = spot[i % Offerings] as OfferingKey;
      const hydrated = await provider!.cloudProvider.create(claims.pinned(offering));
      const created = await cluster.create(NodeClaims, hydrated);
      launched.push(await cluster.updateStatus(NodeClaims, { ...created, status: hydrated.status }));
    });
    const [poisoned, ...interrupted] = launched as [NodeClaim, ...NodeClaim[]];
    const poisonedName = poisoned.metadata.name ?? '';
    cluster.addAdmissionHook(
      (request) => {
        if (request.operation === 'DELETE' && request.object.metadata.name === poisonedName)
          throw new InternalError('etcdserver: request timed out');
      },
      [NodeClaims],
    );

    // Every DeleteMessage the queue serves, by the message its receipt handle names.
    const deletes = new Map<string, number>();
    const sqs = mock.sqs;
    const serve = sqs.delete.bind(sqs);
    sqs.delete = (queue, handle) => {
      const id = Buffer.from(handle, 'base64').toString('utf8').split('\n')[1] ?? handle;
      deletes.set(id, (deletes.get(id) ?? 0) + 1);
      return serve(queue, handle);
    };

    manager = new Manager({ cluster, clock, timers, registry, logger });
    manager.register(
      interruptionController({
        cluster,
        cloudProvider: provider.cloudProvider,
        clock,
        events,
        metrics: lifecycleMetrics(registry),
      }),
    );
    manager.start();
    await manager.synced();

    const instanceId = (c: NodeClaim) => c.status?.providerID?.split('/').pop() ?? '';
    const start = performance.now();
    const sent = [
      ...[poisoned, ...interrupted].map((c) =>
        mock!.pushInterruption(mock!.events.spotInterruption(instanceId(c))),
      ),
      sqs.send(mock.interruptionQueue, 'not json {').id,
    ];
    let actedMs: number | undefined;
    let drainedMs: number | undefined;
    while (performance.now() - start < DeadlineMs && (actedMs === undefined || drainedMs === undefined)) {
      const left = (await cluster.list(NodeClaims)).items.length;
      if (actedMs === undefined && left === 1) actedMs = performance.now() - start;
      if (drainedMs === undefined && mock.interruptionQueue.messages.length === 0)
        drainedMs = performance.now() - start;
      await sleep(20);
    }
    const remaining = (await cluster.list(NodeClaims)).items.map((c) => c.metadata.name);
    const interruptedOfferings = new Set(spot.map(offeringId));
    const cached = new Set(unavailableOfferings.entries().map(offeringId));
    const dropped = lines.filter((l) => String(l.message).startsWith('dropping interruption notice'));
    const notJson = lines.filter(
      (l) => l.message === 'deleting interruption queue message that is not an interruption',
    );
    const result = {
      notices: Notices,
      messages: sent.length,
      allActedOnMs: actedMs === undefined ? undefined : Math.round(actedMs),
      queueDrainedMs: drainedMs === undefined ? undefined : Math.round(drainedMs),
      claimsLeft: remaining.length,
      messagesDeletedOnce: sent.filter((id) => deletes.get(id) === 1).length,
      deleteMessageCalls: [...deletes.values()].reduce((a, b) => a + b, 0),
      offeringsInterrupted: interruptedOfferings.size,
      offeringsCached: [...interruptedOfferings].filter((o) => cached.has(o)).length,
      poisonedDropped: dropped.length,
    };
    console.log(`aws interruption storm: ${JSON.stringify(result)}`);

    expect(actedMs, 'every interrupted NodeClaim deleted within 30 s').toBeDefined();
    expect(drainedMs, 'the queue empty within 30 s').toBeDefined();
    expect(remaining, 'only the claim the apiserver refuses to delete is left').toEqual([poisonedName]);
    expect(result.messagesDeletedOnce, 'every message deleted exactly once').toBe(sent.length);
    expect(result.deleteMessageCalls).toBe(sent.length);
    expect(result.offeringsCached).toBe(Offerings);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.attempts).toBe(3);
    expect(notJson).toHaveLength(1);
    // Karpenter's interruption metrics count per message: every spot warning received (the
    // non-JSON body is no event, so not received), every message deleted once, and each handled
    // warning's time on the queue observed when it was deleted.
    const value = async (name: string, suffix = '') =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) => ((v as { metricName?: string }).metricName ?? name) === `${name}${suffix}`,
      )?.value;
    const received = (await registry.getSingleMetric('karpenter_interruption_received_messages_total')?.get())
      ?.values;
    expect(received?.map((v) => [v.labels.message_type, v.value])).toEqual([
      ['spot_interrupted', Notices + 1],
    ]);
    expect(await value('karpenter_interruption_deleted_messages_total')).toBe(sent.length);
    expect(await value('karpenter_interruption_message_queue_duration_seconds', '_count')).toBe(Notices + 1);
    // Nothing comes back: the dropped message is gone from the queue for good.
    await sleep(2_500);
    expect(mock.interruptionQueue.messages).toHaveLength(0);
    expect([...deletes.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
