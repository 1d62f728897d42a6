import { describe, expect, it } from 'vitest';
import { boundPod, cluster, managedNode, T0 } from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { parseCronSchedule } from './budgets/cron-schedule.js';
import { computeDisruption } from './compute-disruption.js';
import { nextCronHit, nextEligibilityInstant } from './next-eligibility.js';

const at = (iso: string) => Date.parse(iso);
const schedule = (text: string) => {
  const parsed = parseCronSchedule(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.schedule;
};

describe('nextCronHit', () => {
  it('finds the first hit strictly after the instant', () => {
    const daily = schedule('0 9 * * *');
    expect(nextCronHit(daily, at('2026-03-02T08:59:59Z'))).toBe(at('2026-03-02T09:00:00Z'));
    expect(nextCronHit(daily, at('2026-03-02T09:00:00Z'))).toBe(at('2026-03-03T09:00:00Z'));
    expect(nextCronHit(schedule('*/15 * * * *'), at('2026-03-02T10:07:30Z'))).toBe(
      at('2026-03-02T10:15:00Z'),
    );
  });

  it('crosses weeks, months and leap days', () => {
    // 2026-03-02 is a Monday: the next Sunday 03:30 is 2026-03-08.
    expect(nextCronHit(schedule('30 3 * * 0'), at('2026-03-02T00:00:00Z'))).toBe(at('2026-03-08T03:30:00Z'));
    expect(nextCronHit(schedule('@monthly'), at('2026-03-02T00:00:00Z'))).toBe(at('2026-04-01T00:00:00Z'));
    expect(nextCronHit(schedule('0 0 29 2 *'), at('2026-03-02T00:00:00Z'))).toBe(at('2028-02-29T00:00:00Z'));
  });

  it('gives up past the horizon', () => {
    expect(nextCronHit(schedule('0 0 29 2 *'), at('2026-03-02T00:00:00Z'), 30 * 86_400_000)).toBeUndefined();
  });
});

const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;

describe('nextEligibilityInstant', () => {
  it('is when the newest pod makes the node consolidatable, and the pass agrees', () => {
    const snapshot = cluster({
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { consolidateAfter: '10m' } } }),
      ],
      nodes: [
        {
          node: managedNode('a', { type: 'large' }),
          pods: [
            boundPod('p', 'a', { created: iso(T0 - 3 * MIN) }),
            boundPod('q', 'a', { created: iso(T0 - 4 * MIN) }),
          ],
        },
      ],
    });
    const at = nextEligibilityInstant(snapshot, T0);
    expect(at).toBe(T0 + 7 * MIN);
    expect(computeDisruption(snapshot, at! - 1).commands).toEqual([]);
    expect(computeDisruption(snapshot, at!).commands.length).toBe(1);
  });

  it('is when a do-not-disrupt duration ends', () => {
    const snapshot = cluster({
      nodes: [
        {
          node: managedNode('a', { type: 'large' }),
          pods: [
            boundPod('p', 'a', {
              annotations: { 'karpenter.sh/do-not-disrupt': '30m' },
              created: iso(T0 - 20 * MIN),
            }),
          ],
        },
      ],
    });
    const at = nextEligibilityInstant(snapshot, T0);
    expect(at).toBe(T0 + 10 * MIN);
    expect(computeDisruption(snapshot, at! - 1).commands).toEqual([]);
    expect(computeDisruption(snapshot, at!).commands.length).toBe(1);
  });

  it('is the edge of a budget window, opening or closing', () => {
    // T0 is 12:00 UTC. A window from 12:30 for 1h that allows nothing.
    const blocking = aNodePool({
      metadata: { name: 'default' },
      spec: { disruption: { budgets: [{ nodes: '0', schedule: '30 12 * * *', duration: '1h' }] } },
    });
    const snapshot = cluster({ pools: [blocking], nodes: [{ node: managedNode('a') }] });
    expect(nextEligibilityInstant(snapshot, T0)).toBe(T0 + 30 * MIN);
    expect(nextEligibilityInstant(snapshot, T0 + 30 * MIN)).toBe(T0 + 90 * MIN);
    expect(computeDisruption(snapshot, T0 + 90 * MIN - 1).commands).toEqual([]);
    expect(computeDisruption(snapshot, T0 + 90 * MIN).commands.length).toBe(1);
  });

  it('is undefined when nothing depends on time any more', () => {
    const snapshot = cluster({ nodes: [{ node: managedNode('a'), pods: [boundPod('p', 'a')] }] });
    expect(nextEligibilityInstant(snapshot, T0)).toBeUndefined();
  });
});
