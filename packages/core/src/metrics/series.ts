import type { Gauge } from 'prom-client';

/** One value of a gauge with its labels. */
export interface Series<L extends string = string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly value: number;
}

function labelKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A series an owner has set: the labels object handed to the gauge, and the value. */
interface Tracked {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * Remembers which series each object (a Node, a Pod, a NodePool) has set on each gauge, so a
 * reconcile can replace them wholesale and a deleted object leaves no stale series behind:
 * `replace(owner, gauge, series)` sets the new values and removes the owner's series that are
 * not among them; `remove(owner)` removes all of the owner's series.
 *
 * A series whose labels and value are those already set is left as it is, and one whose value
 * changed is set with the labels object it was first set with: the gauge keeps the same labels
 * object, so /metrics reuses its label text (MetricsText), and a pod reconciled on every status
 * update costs no write at all while its series stays the same.
 */
export class SeriesTracker {
  readonly #owned = new Map<string, Map<Gauge<string>, Map<string, Tracked>>>();

  replace<L extends string>(owner: string, gauge: Gauge<L>, series: readonly Series<L>[]): void {
    const byGauge = this.#owned.get(owner) ?? new Map<Gauge<string>, Map<string, Tracked>>();
    const before = byGauge.get(gauge as Gauge<string>) ?? new Map<string, Tracked>();
    const now = new Map<string, Tracked>();
    for (const s of series) {
      const key = labelKey(s.labels);
      const kept = now.get(key) ?? before.get(key);
      const labels = kept?.labels ?? s.labels;
      if (kept === undefined || !Object.is(kept.value, s.value))
        gauge.set(labels as Partial<Record<L, string>>, s.value);
      now.set(key, { labels, value: s.value });
    }
    for (const [key, { labels }] of before) {
      if (!now.has(key)) gauge.remove(labels as Partial<Record<L, string>>);
    }
    if (now.size === 0) byGauge.delete(gauge as Gauge<string>);
    else byGauge.set(gauge as Gauge<string>, now);
    if (byGauge.size === 0) this.#owned.delete(owner);
    else this.#owned.set(owner, byGauge);
  }

  remove(owner: string): void {
    const byGauge = this.#owned.get(owner);
    if (byGauge === undefined) return;
    for (const [gauge, series] of byGauge) for (const { labels } of series.values()) gauge.remove(labels);
    this.#owned.delete(owner);
  }

  /** Owners that have series now (for tests and for sweeping). */
  owners(): string[] {
    return [...this.#owned.keys()];
  }
}
