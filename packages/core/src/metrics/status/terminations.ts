import { Histogram, type Registry } from 'prom-client';
import type { Clock } from '../../clock/clock.js';
import { reuse, scrapedGauge } from '../../operator/runtime/metrics.js';

/** One object being deleted: its current-time series' labels in each family, and since when. */
export interface Terminating {
  /** Labels of the deprecated generic family (`namespace`, `name`, `group`, `kind`); none when the kind does not emit it. */
  readonly generic?: Readonly<Record<string, string>>;
  /** Labels of the kind's own family (`namespace`, `name` and the kind's extra labels). */
  readonly own: Readonly<Record<string, string>>;
  /** Its deletionTimestamp, ms since the epoch. */
  readonly sinceMs: number;
}

/** A kind whose terminations are reported. */
export interface TerminatingKind {
  readonly kind: string;
  /** Prometheus label names of the object labels its own families carry. */
  readonly extraLabels: readonly string[];
  /** Buckets of its own duration histogram. */
  readonly buckets: readonly number[];
}

/** operatorpkg's help texts, naming what terminates (`an object`, `a nodeclaim`). */
const currentHelp = (what: string) =>
  `The current amount of time in seconds that ${what} has been in terminating state.`;
const durationHelp = (what: string) => `The amount of time taken by ${what} to terminate completely.`;

/**
 * operatorpkg's termination metrics, which its status controller keeps beside the condition
 * metrics: `operator_<kind>_termination_current_time_seconds` (`namespace`, `name`, extra labels:
 * seconds since the object's deletionTimestamp, while it exists) and
 * `operator_<kind>_termination_duration_seconds` (extra labels: deletionTimestamp to the object
 * being gone, observed once), plus the deprecated generic `operator_termination_*` ones (`group`,
 * `kind` instead of the extra labels; Prometheus' default buckets) for the kinds that emit them.
 * The current time is computed when scraped (operatorpkg sets it on a requeue), so a gone object
 * leaves no series behind.
 */
export class Terminations {
  /** Kind -> `namespace/name` -> the object being deleted. */
  readonly #byKind = new Map<string, Map<string, Terminating>>();
  readonly #durations = new Map<string, Histogram<string>>();
  readonly #genericDuration: Histogram<string>;
  readonly #clock: Clock;

  constructor(
    registry: Registry,
    clock: Clock,
    kinds: readonly TerminatingKind[],
    genericBuckets: readonly number[],
  ) {
    this.#clock = clock;
    const gauge = (
      name: string,
      what: string,
      labelNames: readonly string[],
      pick: () => Iterable<[Terminating, 'generic' | 'own']>,
    ) => {
      scrapedGauge(registry, { name, help: currentHelp(what), labelNames }, function* () {
        const now = clock.now();
        for (const [t, family] of pick()) {
          const labels = family === 'generic' ? t.generic : t.own;
          if (labels !== undefined) yield [labels, Math.max(0, now - t.sinceMs) / 1000];
        }
      });
    };
    const histogram = (
      name: string,
      what: string,
      labelNames: readonly string[],
      buckets: readonly number[],
    ) =>
      reuse(
        registry,
        name,
        () =>
          new Histogram({
            name,
            help: durationHelp(what),
            labelNames: [...labelNames],
            buckets: [...buckets],
            registers: [registry],
          }),
      );
    gauge(
      'operator_termination_current_time_seconds',
      'an object',
      ['namespace', 'name', 'group', 'kind'],
      () => this.#all([...this.#byKind.keys()], 'generic'),
    );
    this.#genericDuration = histogram(
      'operator_termination_duration_seconds',
      'an object',
      ['group', 'kind'],
      genericBuckets,
    );
    for (const { kind, extraLabels, buckets } of kinds) {
      const lower = kind.toLowerCase();
      this.#byKind.set(kind, new Map());
      gauge(
        `operator_${lower}_termination_current_time_seconds`,
        `a ${lower}`,
        ['namespace', 'name', ...extraLabels],
        () => this.#all([kind], 'own'),
      );
      this.#durations.set(
        kind,
        histogram(`operator_${lower}_termination_duration_seconds`, `a ${lower}`, extraLabels, buckets),
      );
    }
  }

  /** `kind`'s object `id` is being deleted (again: the latest labels win). */
  terminating(kind: string, id: string, terminating: Terminating): void {
    this.#byKind.get(kind)?.set(id, terminating);
  }

  /**
   * `kind`'s object `id` is gone: if it was seen terminating, observes how long it took (to the
   * clock's now) and drops its current-time series. An object never seen terminating (deleted
   * while the controller was down, say) is not observed: its deletion time is unknown.
   */
  gone(kind: string, id: string): void {
    const objects = this.#byKind.get(kind);
    const t = objects?.get(id);
    if (objects === undefined || t === undefined) return;
    objects.delete(id);
    if (!Number.isFinite(t.sinceMs)) return;
    const seconds = Math.max(0, this.#clock.now() - t.sinceMs) / 1000;
    const { namespace: _ns, name: _name, ...extra } = t.own;
    this.#durations.get(kind)?.observe(extra, seconds);
    if (t.generic !== undefined) {
      const { namespace: _gns, name: _gname, ...kindLabels } = t.generic;
      this.#genericDuration.observe(kindLabels, seconds);
    }
  }

  /** `kind`'s object `id` exists and is not being deleted (a deletion was cancelled, or never began). */
  notTerminating(kind: string, id: string): void {
    this.#byKind.get(kind)?.delete(id);
  }

  *#all(kinds: readonly string[], family: 'generic' | 'own'): Iterable<[Terminating, 'generic' | 'own']> {
    for (const kind of kinds)
      for (const t of this.#byKind.get(kind)?.values() ?? [])
        if (Number.isFinite(t.sinceMs)) yield [t, family];
  }
}
