import type { Gauge } from 'prom-client';

/** One value of a gauge with its labels. */
export interface Series<L extends string = string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly value: number;
}

function labelKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Remembers which series each object (a Node, a Pod, a NodePool) has set on each gauge, so a
 * reconcile can replace them wholesale and a deleted object leaves no stale series behind:
 * `replace(owner, gauge, series)` sets the new values and removes the owner's series that are
 * not among them; `remove(owner)` removes all of the owner's series.
 */
export class SeriesTracker {
  readonly #owned = new Map<string, Map<Gauge<string>, Map<string, Readonly<Record<string, string>>>>>();

  replace<L extends string>(owner: string, gauge: Gauge<L>, series: readonly Series<L>[]): void {
    const byGauge = this.#owned.get(owner) ?? new Map();
    const before = byGauge.get(gauge as Gauge<string>) ?? new Map<string, Readonly<Record<string, string>>>();
    const now = new Map<string, Readonly<Record<string, string>>>();
    for (const s of series) {
      gauge.set(s.labels as Partial<Record<L, string>>, s.value);
      now.set(labelKey(s.labels), s.labels);
    }
    for (const [key, labels] of before) {
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
    for (const [gauge, series] of byGauge) for (const labels of series.values()) gauge.remove(labels);
    this.#owned.delete(owner);
  }

  /** Owners that have series now (for tests and for sweeping). */
  owners(): string[] {
    return [...this.#owned.keys()];
  }
}
