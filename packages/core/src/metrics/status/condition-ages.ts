import type { Registry } from 'prom-client';
import type { Clock } from '../../clock/clock.js';
import { scrapedGauge } from '../../operator/runtime/metrics.js';

/** One condition an object has now: its series' labels in the generic and the kind's family, and since when. */
export interface ConditionAge {
  readonly generic: Readonly<Record<string, string>>;
  readonly own: Readonly<Record<string, string>>;
  /** Its lastTransitionTime, ms since the epoch. */
  readonly sinceMs: number;
}

/** A kind whose conditions' ages are reported, with its own family's extra label names. */
export interface AgedKind {
  readonly kind: string;
  readonly extraLabels: readonly string[];
  /** Whether its conditions are also in the deprecated generic family; default true. */
  readonly generic?: boolean;
}

/**
 * `operator_status_condition_current_status_seconds` and each kind's
 * `operator_<kind>_status_condition_current_status_seconds`: how long each object's conditions
 * have held their status, computed when scraped from what the status controllers `set` here
 * (operatorpkg sets them on a 10 s requeue of every object; at scrape time they cost nothing
 * between scrapes and are never stale).
 */
export class ConditionAges {
  /** Kind -> `namespace/name` -> its conditions now. */
  readonly #byKind = new Map<string, Map<string, readonly ConditionAge[]>>();
  /** Kinds also reported in the generic family. */
  readonly #generic: string[] = [];

  constructor(registry: Registry, clock: Clock, kinds: readonly AgedKind[]) {
    const help =
      'The current amount of time in seconds that a status condition has been in a specific state.';
    const gauge = (
      name: string,
      labelNames: readonly string[],
      pick: () => Iterable<[ConditionAge, 'generic' | 'own']>,
    ) => {
      scrapedGauge(registry, { name, help, labelNames }, function* () {
        const now = clock.now();
        for (const [age, family] of pick()) yield [age[family], Math.max(0, now - age.sinceMs) / 1000];
      });
    };
    const base = ['namespace', 'name', 'type', 'status', 'reason'];
    gauge('operator_status_condition_current_status_seconds', [...base, 'group', 'kind'], () =>
      this.#ages(this.#generic, 'generic'),
    );
    for (const { kind, extraLabels, generic } of kinds) {
      this.#byKind.set(kind, new Map());
      if (generic ?? true) this.#generic.push(kind);
      gauge(
        `operator_${kind.toLowerCase()}_status_condition_current_status_seconds`,
        [...base, ...extraLabels],
        () => this.#ages([kind], 'own'),
      );
    }
  }

  /** Replaces what `kind`'s object `id` has now; an empty list removes it. */
  set(kind: string, id: string, ages: readonly ConditionAge[]): void {
    const objects = this.#byKind.get(kind);
    if (objects === undefined) return;
    if (ages.length === 0) objects.delete(id);
    else objects.set(id, ages);
  }

  *#ages(kinds: readonly string[], family: 'generic' | 'own'): Iterable<[ConditionAge, 'generic' | 'own']> {
    for (const kind of kinds)
      for (const ages of this.#byKind.get(kind)?.values() ?? [])
        for (const age of ages) if (Number.isFinite(age.sinceMs)) yield [age, family];
  }
}
