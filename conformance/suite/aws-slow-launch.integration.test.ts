import { EC2NodeClasses } from '@nodewright/aws';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import type { NodeClaim, NodePool } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { ignoreNotFound, MemoryCluster, NodeClaims, NodePools } from '@nodewright/core/kube';
import { lifecycleControllers, lifecycleMetrics } from '@nodewright/core/lifecycle';
import { createLogger, Manager, type ProviderInstance } from '@nodewright/core/operator';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractClaims, ownedBy } from './src/provider-contract/contract-claims.js';
import { awsProviderOnMock } from './src/providers/aws-harness.js';
import { waitUntil } from './src/wait-until.js';

// Issue 14 item 5, the fault test: EC2 holds ten CreateFleet calls for 600 s. Core's lifecycle
// controllers drive the real AWS provider (the SDK over HTTP) against the wire mock on real
// time. Launches of other claims and the termination of a launched one must not queue behind
// the held calls: they complete within a minute while the ten still wait. Prints its figures
// as a JSON line (`fault measured`) for conformance/README.md's "Faults survived" table.

const ClusterName = 'slow-launch';
const Held = 10;
const Others = 5;
const HeldMs = 600_000;

let mock: AwsMock | undefined;
let provider: ProviderInstance | undefined;
let manager: Manager | undefined;

afterEach(async () => {
  // The mock first: closing it resets the held calls, so the reconciles waiting on them end.
  await mock?.close();
  await manager?.stop();
  await provider?.close?.();
});

describe('aws: CreateFleet calls held for 600 s', () => {
  it('other launches and a termination still complete within 1 min while 10 launches wait', async () => {
    const clock = new SystemClock();
    const timers = new SystemTimers();
    const logger = createLogger({ level: 'silent' });
    mock = await startAwsMock({ cluster: ClusterName, timings: { startMs: 0 } });
    const cluster = new MemoryCluster({ clock, kinds: [NodePools, NodeClaims, EC2NodeClasses] });
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
    const pool = composed.pool as NodePool;
    manager = new Manager({ cluster, clock, timers, registry: composed.registry, logger });
    manager.register(
      ...provider.controllers,
      ...lifecycleControllers({
        cluster,
        cloudProvider: provider.cloudProvider,
        clock,
        events: composed.events,
        metrics: lifecycleMetrics(composed.registry),
      }),
    );
    manager.start();
    await manager.synced();

    const claims = new ContractClaims(pool);
    const create = async () =>
      (await cluster.create(NodeClaims, ownedBy(claims.claim(), pool))).metadata.name ?? '';
    const claim = async (name: string): Promise<NodeClaim | undefined> => {
      try {
        return await cluster.get(NodeClaims, { name });
      } catch (err) {
        ignoreNotFound(err);
        return undefined;
      }
    };
    const launched = async (name: string) => ((await claim(name))?.status?.providerID ?? '') !== '';
    const exists = async (name: string) => (await claim(name)) !== undefined;
    const wait = <T>(what: string, timeoutMs: number, probe: () => Promise<T>, done: (v: T) => boolean) =>
      waitUntil(probe, done, { what, timeoutMs, intervalMs: 100 });

    const victim = await create();
    await wait('the first claim launched', 30_000, () => launched(victim), Boolean);
    mock.faults.latencyNext('CreateFleet', HeldMs, Held);
    const held: string[] = [];
    for (let i = 0; i < Held; i++) held.push(await create());
    // Their CreateFleet calls go out and are held.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const began = Date.now();
    const others: string[] = [];
    for (let i = 0; i < Others; i++) others.push(await create());
    await cluster.delete(NodeClaims, { name: victim });
    const done = await wait(
      'the other launches and the termination',
      60_000,
      async () => ({
        launched: (await Promise.all(others.map(launched))).filter(Boolean).length,
        victimGone: !(await exists(victim)),
      }),
      (s) => s.launched === Others && s.victimGone,
    );
    const tookMs = Date.now() - began;
    const heldLaunched = (await Promise.all(held.map(launched))).filter(Boolean).length;
    expect(done).toEqual({ launched: Others, victimGone: true });
    expect(heldLaunched, 'the held calls were still held').toBe(0);
    const victimInstance = [...mock.ec2.instances.values()].find(
      (i) => i.tags.get('karpenter.sh/nodeclaim') === victim,
    );
    expect(victimInstance?.state).toMatch(/shutting-down|terminated/);
    console.info(
      JSON.stringify({
        message: 'fault measured',
        fault: 'CreateFleet held 600 s for 10 claims',
        'held-launches': Held,
        'other-launches': Others,
        'other-launches-and-termination-done-ms': tookMs,
        'held-launches-completed-meanwhile': heldLaunched,
      }),
    );
  }, 120_000);
});
