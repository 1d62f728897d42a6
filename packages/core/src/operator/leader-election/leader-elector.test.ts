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
 * (`true`) or never answer (`'hang'`); or slowed, as a loaded apiserver answers: each request
 * takes effect at once and its answer arrives later, by the given delays in turn (cycling).
 * `calls` counts requests by method.
 */
function partitionable(
  cluster: ClusterPort,
  timers: ManualTimers,
): {
  port: ClusterPort;
  cut: (on: boolean | 'hang') => void;
  slow: (...ms: number[]) => void;
  calls: Map<string, number>;
} {
  let cut: boolean | 'hang' = false;
  let delays: number[] = [];
  let sent = 0;
  const calls = new Map<string, number>();
  const port = new Proxy(cluster, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        if (cut === 'hang') return new Promise(() => {});
        if (cut) return Promise.reject(new UnreachableError('partitioned', undefined));
        const answer = value.apply(target, args) as Promise<unknown>;
        if (delays.length === 0) return answer;
        const delay = delays[sent++ % delays.length]!;
        return answer.then(
          (result) => new Promise((resolve) => timers.after(delay, () => resolve(result))),
          (err: unknown) => new Promise((_, reject) => timers.after(delay, () => reject(err))),
        );
      };
    },
  });
  const slow = (...ms: number[]) => {
    delays = ms;
    sent = 0;
  };
  return { port, cut: (on) => (cut = on), slow, calls };
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
    const link = partitionable(cluster, timers);
    const elector = new LeaderElector({ cluster: link.port, clock, timers, logger }, { ...LEASE, identity });
    const handlers = {
      onStartedLeading: () => timeline.push({ at: clock.now(), who: identity, event: 'started' }),
      onStoppedLeading: () => timeline.push({ at: clock.now(), who: identity, event: 'stopped' }),
    };
    return {
      elector,
      cut: link.cut,
      slow: link.slow,
      calls: link.calls,
      start: () => elector.start(handlers),
    };
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
  /** `a` leading, `b` started 3 s ago and waiting. */
  const leaderAndStandby = async () => {
    const a = candidate('a');
    a.start();
    await settle();
    const b = candidate('b');
    b.start();
    await run(3_000, [a.elector, b.elector]);
    return { a, b };
  };
  return { clock, timers, cluster, timeline, candidate, settle, run, leaderAndStandby };
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

  it('renews with one update of the lease it wrote, and reads again only when that update fails', async () => {
    const { cluster, candidate, settle, run } = await setup();
    const a = candidate('a');
    a.start();
    await settle();
    expect(a.elector.isLeader()).toBe(true);
    a.calls.clear();
    await run(20_000, [a.elector]);
    // Ten renewals every 2 s, none of them read first.
    expect(a.calls.get('update')).toBe(10);
    expect(a.calls.get('get') ?? 0).toBe(0);
    // Someone else touches the lease (a label): the blind update conflicts, the round reads the
    // lease and renews it, and the leader keeps leading.
    const lease = await cluster.get(Leases, LEASE);
    await cluster.update(Leases, { ...lease, metadata: { ...lease.metadata, labels: { touched: 'yes' } } });
    a.calls.clear();
    await run(2_000, [a.elector]);
    expect(a.calls.get('get')).toBe(1);
    expect(a.calls.get('update')).toBe(2);
    expect(a.elector.isLeader()).toBe(true);
    const renewed = await cluster.get(Leases, LEASE);
    expect(renewed.metadata?.labels).toEqual({ touched: 'yes' });
    expect(Date.parse(renewed.spec!.renewTime!)).toBeGreaterThan(Date.parse(lease.spec!.renewTime!));
  });

  it('a leader keeps leading while its apiserver answers within renewDeadline / 2, and not longer', async () => {
    const { run, timeline, leaderAndStandby } = await setup();
    const { a, b } = await leaderAndStandby();
    // 4 s an answer: a read and a write (8 s) would not fit the 5 s request timeout.
    a.slow(4_000);
    await run(60_000, [a.elector, b.elector]);
    expect(a.elector.isLeader()).toBe(true);
    // 5 s: every answer arrives exactly as the renew deadline (10 s after the renewal before)
    // fires, as an answer waiting in the socket does when the event loop was held past it.
    a.slow(5_000);
    await run(60_000, [a.elector, b.elector]);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.writeRefusal()).toBeUndefined();
    expect(b.elector.holder()).toBe('a');
    expect(timeline.filter((e) => e.event === 'stopped')).toEqual([]);
    // 6 s: the renewal sent after an answer comes back past the deadline of the one before.
    a.slow(6_000);
    await run(30_000, [a.elector, b.elector]);
    expect(a.elector.isLeader()).toBe(false);
    expect(b.elector.isLeader()).toBe(true);
  });

  it('a leader waits for a slow renewal until its deadline, not just the 5 s request timeout', async () => {
    const { run, timeline, leaderAndStandby } = await setup();
    const { a, b } = await leaderAndStandby();
    // 6 s then 4 s in turn: each 6 s answer comes past the request timeout but before the renew
    // deadline; abandoned at 5 s, the retry's answer would come after the deadline.
    a.slow(6_000, 4_000);
    await run(60_000, [a.elector, b.elector]);
    expect(a.elector.isLeader()).toBe(true);
    expect(b.elector.holder()).toBe('a');
    expect(timeline.filter((e) => e.event === 'stopped')).toEqual([]);
  });
});
