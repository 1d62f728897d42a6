import type { Clock } from '../../clock/clock.js';

const HOUR_MS = 3_600_000;

/** One instance's entry in the ledger: what it cost per hour and when it ran. */
export interface CostRecord {
  readonly instanceID: string;
  readonly providerID: string;
  readonly nodeClaimName: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  /** Per hour, in the catalog's currency. */
  readonly pricePerHour: number;
  /** Billing starts (ms since epoch). */
  readonly startedAt: number;
  /** Billing stops; absent while the instance runs. */
  readonly stoppedAt?: number;
}

/**
 * Per-instance billing history of a simulated cloud: each instance is billed its offering's
 * hourly price, pro rata to the millisecond, from launch until it is terminated. Instances
 * still running are billed up to the clock's now.
 */
export class CostLedger {
  readonly #clock: Clock;
  readonly #records: CostRecord[] = [];
  readonly #index = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Starts billing an instance (at the record's `startedAt`). Starting one twice is a bug. */
  start(record: Omit<CostRecord, 'stoppedAt'>): void {
    if (this.#index.has(record.instanceID))
      throw new Error(`instance ${record.instanceID} is already billed`);
    this.#index.set(record.instanceID, this.#records.length);
    this.#records.push({ ...record });
  }

  /** Stops billing an instance at `at` (default now); stopping twice keeps the first stop. */
  stop(instanceID: string, at: number = this.#clock.now()): void {
    const i = this.#index.get(instanceID);
    if (i === undefined) throw new Error(`instance ${instanceID} was never billed`);
    const record = this.#records[i]!;
    if (record.stoppedAt !== undefined) return;
    this.#records[i] = { ...record, stoppedAt: Math.max(at, record.startedAt) };
  }

  /** Every record, in launch order. */
  records(): readonly CostRecord[] {
    return [...this.#records];
  }

  /**
   * What the fleet cost over [t0, t1): each instance's price times the hours its billed
   * interval overlaps the window (running instances count up to now, not beyond).
   */
  costBetween(t0: number, t1: number): number {
    const now = this.#clock.now();
    let total = 0;
    for (const r of this.#records) {
      const from = Math.max(t0, r.startedAt);
      const to = Math.min(t1, r.stoppedAt ?? now);
      if (to > from) total += (r.pricePerHour * (to - from)) / HOUR_MS;
    }
    return total;
  }

  /** The fleet's hourly burn rate at instant `t`: the prices of the instances billed then. */
  hourlyRateAt(t: number): number {
    let rate = 0;
    for (const r of this.#records) {
      if (r.startedAt <= t && (r.stoppedAt === undefined ? t <= this.#clock.now() : t < r.stoppedAt)) {
        rate += r.pricePerHour;
      }
    }
    return rate;
  }
}
