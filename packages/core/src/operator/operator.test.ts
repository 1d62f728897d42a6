import { createServer } from 'node:net';
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/clock.js';
import { SystemTimers } from '../clock/timers.js';
import { UnreachableError } from '../kube/client-node/response-errors.js';
import type { ClusterPort } from '../kube/port.js';
import { Events, NodePools } from '../kube/resource-types.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { clusterWithEstablishedCrds, fakeProviderPlugin } from '../testing/operator-fixtures.js';
import { CustomResourceDefinitions } from './crds/crd-type.js';
import { FencedWriteError } from './leader-election/fenced-cluster.js';
import { Leases } from './leader-election/lease.js';
import { Operator, type OperatorOptions } from './operator.js';
import type { ProviderPlugin } from './plugin/provider-plugin.js';
import { createLogger } from './runtime/logger.js';

/*
 * The composition root on the in-memory cluster with wall-clock time and short leader-election
 * durations (the real-cluster run is operator.integration.test.ts).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE = { namespace: 'kube-system', name: 'nodewright-leader-election' };
const FAST = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 200 };

/** Lease writes through this port can be cut, as a partition of one replica would. */
function partitionable(cluster: ClusterPort): { port: ClusterPort; cut: () => void } {
  let cut = false;
  const port = new Proxy(cluster, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        cut && args[0] === Leases
          ? Promise.reject(new UnreachableError('partitioned', undefined))
          : value.apply(target, args);
    },
  });
  return { port, cut: () => (cut = true) };
}

const plugin = fakeProviderPlugin();

const running: Operator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((o) => o.stop()));
});

function operator(cluster: ClusterPort, identity: string, overrides: Partial<OperatorOptions> = {}) {
  const lines: string[] = [];
  const destination = { write: (l: string) => void lines.push(l) } as unknown as Writable;
  const op = new Operator({
    environment: {
      clock: new SystemClock(),
      timers: new SystemTimers(),
      logger: createLogger({ level: 'info', destination }),
    },
    plugin,
    clusterName: 'test',
    settings: {},
    cluster,
    metricsPort: 0,
    healthPort: 0,
    host: '127.0.0.1',
    leaderElection: { ...LEASE, identity, ...FAST },
    ...overrides,
  });
  running.push(op);
  const messages = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { op, messages };
}

async function until(what: string, probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('Operator', () => {
  it('installs the CRDs, becomes ready (/readyz 200) and leads', async () => {
    const cluster = clusterWithEstablishedCrds();
    const { op, messages } = operator(cluster, 'a');
    const health = () => fetch(`http://127.0.0.1:${op.ports.health}/readyz`);
    await op.start();
    await until('leading', () => op.isLeading());
    expect((await health()).status).toBe(200);
    const crds = await cluster.list(CustomResourceDefinitions);
    expect(crds.items.map((c) => c.metadata.name).sort()).toEqual([
      'nodeclaims.karpenter.sh',
      'nodepools.karpenter.sh',
    ]);
    expect(messages().map((m) => m.message)).toEqual(
      expect.arrayContaining(['serving metrics', 'serving health', 'became leader', 'starting controllers']),
    );
    const metrics = await (await fetch(`http://127.0.0.1:${op.ports.metrics}/metrics`)).text();
    expect(metrics).toContain(
      'controller_runtime_max_concurrent_reconciles{controller="provisioning.provisioner"} 1',
    );
  });

  it('samples the event-loop delay from start to stop and serves it on /metrics', async () => {
    const calls: string[] = [];
    const eventLoopDelay = {
      enable: () => calls.push('enable') > 0,
      disable: () => calls.push('disable') > 0,
      percentile: (p: number) => (p === 99 ? 42e6 : 1e6),
      max: 250e6,
    };
    const { op } = operator(clusterWithEstablishedCrds(), 'a', { eventLoopDelay });
    await op.start();
    expect(calls).toEqual(['enable']);
    const metrics = await (await fetch(`http://127.0.0.1:${op.ports.metrics}/metrics`)).text();
    expect(metrics).toContain('nodewright_event_loop_delay_seconds{quantile="0.99"} 0.042');
    expect(metrics).toContain('nodewright_event_loop_delay_seconds{quantile="1"} 0.25');
    await op.stop();
    expect(calls).toEqual(['enable', 'disable']);
  });

  it('a leader that cannot renew stops its controllers and exits 1 before the lease expires for others', async () => {
    const cluster = clusterWithEstablishedCrds();
    const link = partitionable(cluster);
    const a = operator(link.port, 'a');
    await a.op.start();
    await until('a leading', () => a.op.isLeading());
    const b = operator(cluster, 'b');
    await b.op.start();
    await sleep(500);
    expect(b.op.isLeading()).toBe(false);

    link.cut();
    const exit = await a.op.exited;
    expect(exit.code).toBe(1);
    expect(exit.reason).toMatch(/^lost leadership: the lease was not renewed within 1000 ms$/);
    expect(a.op.isLeading()).toBe(false);
    // b could not have led while a still did: it needs leaseDuration without a renewal.
    expect(b.op.isLeading()).toBe(false);
    await until('b leading', () => b.op.isLeading(), 5_000);
    expect(a.messages().find((m) => m.message === 'lost leadership')).toMatchObject({ identity: 'a' });
  });

  it('a leader cut off from its Lease writes nothing after its renewDeadline, even from a reconcile still running', async () => {
    const cluster = clusterWithEstablishedCrds();
    await cluster.create(NodePools, aNodePool({ metadata: { name: 'written' } }));
    const writesAt: number[] = [];
    cluster.watch(NodePools, (event) => {
      if (event.type === 'MODIFIED') writesAt.push(Date.now());
    });
    let renewedAt = 0;
    cluster.watch(Leases, (event) => {
      if (event.type !== 'ERROR' && event.object.spec?.holderIdentity === 'a') renewedAt = Date.now();
    });
    const link = partitionable(cluster);
    const refused: unknown[] = [];
    let done = false;
    const a = operator(link.port, 'a', {
      shutdownTimeoutMs: 500,
      // A reconcile that ignores its signal and keeps writing: the worst case for fencing.
      extraControllers: ({ cluster: port }) => [
        {
          name: 'test.writer',
          watches: [],
          initialKeys: [{ name: 'written' }],
          reconcile: async () => {
            for (let n = 0; !done; n++) {
              try {
                await port.patch(
                  NodePools,
                  { name: 'written' },
                  { metadata: { annotations: { n: String(n) } } },
                );
              } catch (err) {
                refused.push(err);
              }
              await sleep(20);
            }
            return undefined;
          },
        },
      ],
    });
    try {
      await a.op.start();
      await until('writes while leading', () => writesAt.length > 5);
      link.cut();
      const exit = await a.op.exited;
      expect(exit.code).toBe(1);
      await sleep(300);
      const fencedFrom = renewedAt + FAST.renewDeadlineMs;
      expect(writesAt.filter((t) => t > fencedFrom)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((e) => e instanceof FencedWriteError)).toBe(true);
      expect(String((refused[0] as Error).message)).toMatch(
        /^write refused \(patch\): a (no longer leads|has not renewed)/,
      );
    } finally {
      done = true;
    }
  });

  it('a port already in use fails start-up naming it, and ends with code 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { op } = operator(clusterWithEstablishedCrds(), 'a', { healthPort: port });
      await expect(op.start()).rejects.toThrow(`cannot listen on port ${port}: EADDRINUSE`);
      expect((await op.exited).code).toBe(1);
    } finally {
      blocker.close();
    }
  });

  it('checking CRDs that are absent fails start-up with the fix in the message', async () => {
    const { op } = operator(clusterWithEstablishedCrds(), 'a', { crds: 'check' });
    await expect(op.start()).rejects.toThrow(
      'CustomResourceDefinition nodepools.karpenter.sh is not installed (run with --install-crds=true',
    );
  });

  it('stop writes the events still queued before it returns', async () => {
    // Every Event write takes 400 ms, as on a loaded apiserver; the LeaderElection event is
    // queued when the replica starts leading and is still being written when stop is asked.
    const cluster = clusterWithEstablishedCrds();
    const slow = new Proxy(cluster, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop !== 'createEvent') return value.bind(target);
        return async (...args: Parameters<ClusterPort['createEvent']>) => {
          await sleep(400);
          return target.createEvent(...args);
        };
      },
    });
    const { op } = operator(slow, 'a');
    await op.start();
    await until('leading', () => op.isLeading());
    await sleep(50);
    await op.stop();
    const events = (await cluster.list(Events)).items as { reason?: string }[];
    expect(events.map((e) => e.reason)).toContain('LeaderElection');
  });

  it('without leader election the replica leads at once and no Lease is written', async () => {
    const cluster = clusterWithEstablishedCrds();
    const { op } = operator(cluster, 'a', { leaderElection: undefined });
    await op.start();
    expect(op.isLeading()).toBe(true);
    expect((await cluster.list(Leases)).items).toEqual([]);
    await op.stop();
    expect(await op.exited).toEqual({ code: 0, reason: 'stopped' });
  });
  it('a stop during start-up ends it between steps: nothing starts afterwards, exit 0', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: ProviderPlugin = {
      ...plugin,
      create: async (context) => {
        await gate;
        return plugin.create(context);
      },
    };
    const { op, messages } = operator(clusterWithEstablishedCrds(), 'a', { plugin: slow });
    const starting = op.start();
    await until('the provider being built', () => {
      const ready = op.readiness();
      return !ready.ok && ready.reason.startsWith('building');
    });
    const stopping = op.stop();
    release();
    await expect(starting).rejects.toThrow('operator: stopped during start-up');
    await stopping;
    expect(await op.exited).toEqual({ code: 0, reason: 'stopped' });
    expect(op.isLeading()).toBe(false);
    expect(messages().some((m) => m.message === 'starting controllers')).toBe(false);
  });

  it('stop waits for a running reconcile at most shutdownTimeoutMs, then releases the Lease', async () => {
    const cluster = clusterWithEstablishedCrds();
    let entered = false;
    const { op } = operator(cluster, 'a', {
      shutdownTimeoutMs: 300,
      extraControllers: () => [
        {
          name: 'test.stuck',
          watches: [],
          initialKeys: [{ name: 'stuck' }],
          reconcile: async () => {
            entered = true;
            await new Promise(() => {});
            return undefined;
          },
        },
      ],
    });
    await op.start();
    await until('the stuck reconcile', () => entered);
    const began = Date.now();
    await op.stop();
    const took = Date.now() - began;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3_000);
    expect((await cluster.get(Leases, LEASE)).spec?.holderIdentity).toBe('');
  });
});
