import type { Cancel, Clock, Timers } from '@nodewright/core/clock';
import type {
  InterruptionKind,
  InterruptionNotice,
  InterruptionSource,
} from '@nodewright/core/cloudprovider';

/** Uniform numbers in [0, 1); seeded, so interruption draws repeat (core's SeededRandom fits). */
export interface Random {
  next(): number;
}

/** An instance that may be interrupted, as the provider lists it. */
export interface InterruptibleInstance {
  readonly providerID: string;
  readonly capacityType: string;
  readonly instanceType: string;
  readonly zone: string;
}

export interface KwokInterruptionsOptions {
  readonly clock: Clock;
  readonly random: Random;
  /** The provider's live instances (spot ones are drawn for rate-based interruptions). */
  readonly instances: () => Promise<readonly InterruptibleInstance[]>;
  /** Spot interruptions per spot instance per hour; 0 (default) draws none. */
  readonly spotInterruptionsPerHour?: number;
  /** Time between a notice and the instance being taken. Default 2 min (as EC2). */
  readonly noticeMs?: number;
  /** A received, unacknowledged notice is delivered again after this long. Default 30 s. */
  readonly redeliveryMs?: number;
  /**
   * With `take`, the cloud takes the instance at the notice's deadline, whether or not the
   * controller acted (as EC2 reclaims a spot instance): `take` runs on these timers then.
   */
  readonly timers?: Timers;
  /** Ends the instance (deletes its Node); errors go to `onError`. */
  readonly take?: (providerID: string) => Promise<void>;
  readonly onError?: (err: unknown, providerID: string) => void;
}

interface Queued {
  readonly notice: InterruptionNotice;
  deliveredAt?: number;
}

const HOUR_MS = 3_600_000;

/**
 * The KWOK provider's interruption source: notices queued by `interrupt` (tests, scripts) and,
 * when a rate is set, spot interruptions drawn per spot instance from the seeded Random over the
 * time since the last receive (a Poisson process). Delivery is at-least-once: a notice that is
 * not acknowledged comes back after the redelivery delay. `receive` never waits.
 */
export class KwokInterruptions implements InterruptionSource {
  readonly #o: KwokInterruptionsOptions;
  readonly #queue = new Map<string, Queued>();
  /** providerIDs already given a notice, so one instance is interrupted once. */
  readonly #noticed = new Set<string>();
  readonly #deadlines = new Map<string, Cancel>();
  #lastDrawAt: number | undefined;
  #seq = 0;

  constructor(options: KwokInterruptionsOptions) {
    this.#o = options;
  }

  /** Queues a notice for `providerID`; returns it. */
  interrupt(
    instance: Pick<InterruptibleInstance, 'providerID'> & Partial<InterruptibleInstance>,
    kind: InterruptionKind = 'SpotInterruption',
  ): InterruptionNotice {
    const now = this.#o.clock.now();
    const id = `kwok-interruption-${++this.#seq}`;
    const offering =
      kind === 'SpotInterruption' &&
      instance.capacityType !== undefined &&
      instance.instanceType !== undefined &&
      instance.zone !== undefined
        ? { capacityType: instance.capacityType, instanceType: instance.instanceType, zone: instance.zone }
        : undefined;
    const notice: InterruptionNotice = {
      id,
      kind,
      providerID: instance.providerID,
      deadline: now + (this.#o.noticeMs ?? 120_000),
      ...(offering !== undefined ? { offering } : {}),
      message: `kwok: ${kind} of ${instance.providerID}`,
    };
    this.#noticed.add(instance.providerID);
    this.#queue.set(id, { notice });
    this.#scheduleTake(instance.providerID, notice.deadline! - now);
    return notice;
  }

  async receive(): Promise<InterruptionNotice[]> {
    await this.#draw();
    const now = this.#o.clock.now();
    const redelivery = this.#o.redeliveryMs ?? 30_000;
    const out: InterruptionNotice[] = [];
    for (const q of this.#queue.values()) {
      if (q.deliveredAt !== undefined && now - q.deliveredAt < redelivery) continue;
      q.deliveredAt = now;
      out.push(q.notice);
    }
    return out;
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    this.#queue.delete(notice.id);
  }

  /** Cancels the scheduled takes (at shutdown). */
  close(): void {
    for (const cancel of this.#deadlines.values()) cancel();
    this.#deadlines.clear();
  }

  /** Notices not yet acknowledged. */
  pending(): InterruptionNotice[] {
    return [...this.#queue.values()].map((q) => q.notice);
  }

  #scheduleTake(providerID: string, inMs: number): void {
    const { timers, take } = this.#o;
    if (timers === undefined || take === undefined || this.#deadlines.has(providerID)) return;
    this.#deadlines.set(
      providerID,
      timers.after(inMs, () => {
        this.#deadlines.delete(providerID);
        take(providerID).catch((err: unknown) => this.#o.onError?.(err, providerID));
      }),
    );
  }

  async #draw(): Promise<void> {
    const rate = this.#o.spotInterruptionsPerHour ?? 0;
    const now = this.#o.clock.now();
    const since = this.#lastDrawAt;
    this.#lastDrawAt = now;
    if (rate <= 0 || since === undefined || now <= since) return;
    const p = 1 - Math.exp((-rate * (now - since)) / HOUR_MS);
    const instances = await this.#o.instances();
    // Forget instances that are gone, so the set does not grow with every node ever interrupted.
    const live = new Set(instances.map((i) => i.providerID));
    for (const id of this.#noticed) if (!live.has(id)) this.#noticed.delete(id);
    for (const instance of instances) {
      if (instance.capacityType !== 'spot' || this.#noticed.has(instance.providerID)) continue;
      if (this.#o.random.next() < p) this.interrupt(instance);
    }
  }
}
