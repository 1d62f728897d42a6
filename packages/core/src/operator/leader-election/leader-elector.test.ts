import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { UnreachableError } from '../../kube/client-node/response-errors.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { ClusterPort } from '../../kube/port.js';
import { Namespaces } from '../../kube/resource-types.js';
import { LeaderElector } from './leader-elector.js';
import { Leases } from './lease.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const LEASE = { namespace: 'kube-system', name: 'nodewright-leader-election' };

/**
 * A port whose requests can be cut off, as a network partition of one replica would: they fail
 * (`true`) or never answer (`'hang'`).
 */
function partitionable(cluster: ClusterPort): { port: ClusterPort; cut: (on: boolean | 'hang') => void } {
  let cut: boolean | 'hang' = false;
  const port = new Proxy(cluster, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (cut === 'hang') return new Promise(() => {});
        if (cut) return Promise.reject(new UnreachableError('partitioned', undefined));
        return value.apply(target, args);
      };
    },
  });
  return { port, cut: (on) => (cut = on) };
}

async function setup() {
  const clock = new FakeClock(T0);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock });
  await cluster
    .create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } })
    .catch(() => undefined);
  const timeline: { at: number; who: string; event: 'started' | 'stopped' }[] = [];
  const logger = pino({ level: 'silent' });
  const candidate = (identity: string) => {
    const link = partitionable(cluster);
    const elector = new LeaderElector({ cluster: link.port, clock, timers, logger }, { ...LEASE, identity });
    const handlers = {
      onStartedLeading: () => timeline.push({ at: clock.now(), who: identity, event: 'started' }),
      onStoppedLeading: () => timeline.push({ at: clock.now(), who: identity, event: 'stopped' }),
    };
    return { elector, cut: link.cut, start: () => elector.start(handlers) };
  };
  const settle = async () => {
    await cluster.settled();
    await new Promise((resolve) => setImmediate(resolve));
  };
  /** Moves time in 100 ms steps, failing if two electors ever lead at once. */
  const run = async (ms: number, electors: LeaderElector[]) => {
    const until = clock.now() + ms;
    while (clock.now() < until) {
      await timers.advance(100, settle);
      const leaders = electors.filter((e) => e.isLeader()).map((e) => e.identity);
      expect(leaders.length, `leaders at ${clock.now() - T0} ms: ${leaders.join(',')}`).toBeLessThanOrEqual(
        1,
      );
    }
  };
  return { clock, timers, cluster, timeline, candidate, settle, run };
}

describe('LeaderElector', () => {
  it('two candidates starting together: exactly one leads, the other waits and keeps waiting', async () => {
    const { cluster, candidate, settle, run, timeline } = await setup();
    const a = candidate('a');
    const b = candidate('b');
    a.start();
    b.start();
    await settle();
    await run(30_000, [a.elector, b.elector]);
    const leaders = [a.elector, b.elector].filter((e) => e.isLeader());
    expect(leaders).toHaveLength(1);
    const leader = leaders[0]!;
    const other = leader === a.elector ? b.elector : a.elector;
    expect(other.holder()).toBe(leader.identity);
    const lease = await cluster.get(Leases, LEASE);
    expect(lease.spec).toMatchObject({
      holderIdentity: leader.identity,
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
    });
    // Renewed every 2 s: the renewTime is recent.
    expect(Date.parse(lease.spec!.renewTime!)).toBeGreaterThan(T0 + 27_000);
    expect(timeline.filter((e) => e.event === 'started')).toHaveLength(1);
  });

  it('a leader that cannot renew stops at renewDeadline; the other leads only after leaseDuration', async () => {
    const { cluster, candidate, settle, run, timeline, clock } = await setup();
    const a = candidate('a');
    a.start();
    await settle();
    expect(a.elector.isLeader()).toBe(true);
    const b = candidate('b');
    b.start();
    await run(4_000, [a.elector, b.elector]);
    const lastRenew = Date.parse((await cluster.get(Leases, LEASE)).spec!.renewTime!);
    a.cut(true);
    await run(30_000, [a.elector, b.elector]);

    const stoppedA = timeline.find((e) => e.who === 'a' && e.event === 'stopped');
    const startedB = timeline.find((e) => e.who === 'b' && e.event === 'started');
    expect(stoppedA?.at).toBe(lastRenew + 10_000);
    expect(startedB).toBeDefined();
    expect(startedB!.at).toBeGreaterThanOrEqual(lastRenew + 15_000);
    expect(startedB!.at).toBeLessThanOrEqual(lastRenew + 15_000 + 2_000);
    expect(a.elector.isLeader()).toBe(false);
    expect(b.elector.isLeader()).toBe(true);
    const lease = await cluster.get(Leases, LEASE);
    expect(lease.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(clock.now()).toBeGreaterThan(startedB!.at);
  });

  it('releasing on stop lets the standby take over at its next retry', async () => {
    const { cluster, candidate, settle, run, timeline, clock } = await setup();
    const a = candidate('a');
    a.start();
    await settle();
    const b = candidate('b');
    b.start();
    await run(3_000, [a.elector, b.elector]);
    expect(b.elector.isLeader()).toBe(false);
    const released = clock.now();
    await a.elector.stop();
    expect((await cluster.get(Leases, LEASE)).spec).toMatchObject({
      holderIdentity: '',
      leaseDurationSeconds: 1,
    });
    await run(2_100, [a.elector, b.elector]);
    expect(b.elector.isLeader()).toBe(true);
    const startedB = timeline.find((e) => e.who === 'b' && e.event === 'started');
    expect(startedB!.at - released).toBeLessThanOrEqual(2_000);
    // A graceful stop is not a loss.
    expect(timeline.filter((e) => e.who === 'a' && e.event === 'stopped')).toEqual([]);
    expect((await cluster.get(Leases, LEASE)).spec).toMatchObject({
      holderIdentity: 'b',
      leaseTransitions: 1,
    });
  });

  it('a standby whose reads fail keeps waiting and never leads while the leader renews', async () => {
    const { candidate, settle, run } = await setup();
    const a = candidate('a');
    a.start();
    await settle();
    const b = candidate('b');
    b.cut(true);
    b.start();
    await run(20_000, [a.elector, b.elector]);
    b.cut(false);
    await run(20_000, [a.elector, b.elector]);
    expect(a.elector.isLeader()).toBe(true);
    expect(b.elector.isLeader()).toBe(false);
    expect(b.elector.holder()).toBe('a');
  });

  it('refuses durations that cannot keep one leader', () => {
    const deps = {
      cluster: new MemoryCluster({ clock: new FakeClock(T0) }),
      clock: new FakeClock(T0),
      timers: new ManualTimers(new FakeClock(T0)),
      logger: pino({ level: 'silent' }),
    };
    expect(() => new LeaderElector(deps, { ...LEASE, identity: 'a', renewDeadlineMs: 15_000 })).toThrow(
      /leaseDuration \(15000 ms\) must be greater than renewDeadline/,
    );
    expect(() => new LeaderElector(deps, { ...LEASE, identity: 'a', retryPeriodMs: 10_000 })).toThrow(
      /renewDeadline .* must be greater than retryPeriod/,
    );
    expect(() => new LeaderElector(deps, { ...LEASE, identity: '' })).toThrow(/identity/);
  });
  it('requests that never answer: the leader still gives up at renewDeadline, a stalled candidate retries', async () => {
    const { cluster, candidate, settle, run, timeline } = await setup();
    const a = candidate('a');
    a.start();
    await settle();
    const b = candidate('b');
    b.cut('hang');
    b.start();
    await run(8_000, [a.elector, b.elector]);
    b.cut(false);
    // The hung request is abandoned after renewDeadline/2 (5 s), then the next retry reads.
    await run(7_100, [a.elector, b.elector]);
    expect(b.elector.holder()).toBe('a');
    const lastRenew = Date.parse((await cluster.get(Leases, LEASE)).spec!.renewTime!);
    a.cut('hang');
    await run(30_000, [a.elector, b.elector]);
    const stoppedA = timeline.find((e) => e.who === 'a' && e.event === 'stopped');
    expect(stoppedA?.at).toBe(lastRenew + 10_000);
    expect(b.elector.isLeader()).toBe(true);
    // stop() does not wait forever on a server that never answers.
    b.cut('hang');
    let stopped = false;
    void b.elector.stop().then(() => (stopped = true));
    await run(5_100, [a.elector, b.elector]);
    expect(stopped).toBe(true);
  });
});
