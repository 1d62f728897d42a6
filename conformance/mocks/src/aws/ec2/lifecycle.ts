import type { Clock, Timers } from '@nodewright/core/clock';
import type { Ec2Instance, Ec2State, InstanceStateName } from './state.js';

/** How long EC2's transitions take in this mock. */
export interface LifecycleTimings {
  /** pending -> running. */
  readonly startMs: number;
  /** shutting-down -> terminated. */
  readonly terminateMs: number;
  /** How long terminated instances stay listed (EC2: about an hour). */
  readonly terminatedRetentionMs: number;
}

export const DEFAULT_TIMINGS: LifecycleTimings = {
  startMs: 500,
  terminateMs: 1000,
  terminatedRetentionMs: 60 * 60_000,
};

/** Called with an instance each time it is created or changes state, in order. */
export type InstanceListener = (instance: Ec2Instance) => void;

/**
 * Moves instances through EC2's states on the injected timers and tells listeners about every
 * change: launched pending, running after `startMs`; terminate -> shutting-down, terminated after
 * `terminateMs`, forgotten after `terminatedRetentionMs` (its subnet address freed at terminated).
 */
export class InstanceLifecycle {
  readonly #state: Ec2State;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #listeners = new Set<InstanceListener>();
  readonly #cancels = new Set<() => void>();
  /** Current transition delays; tests may replace them between launches. */
  timings: LifecycleTimings;

  constructor(deps: {
    readonly state: Ec2State;
    readonly clock: Clock;
    readonly timers: Timers;
    readonly timings?: Partial<LifecycleTimings>;
  }) {
    this.#state = deps.state;
    this.#clock = deps.clock;
    this.#timers = deps.timers;
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  }

  /** Subscribes to every change; returns the unsubscribe function. */
  onChange(listener: InstanceListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds a new (pending) instance and schedules it to run. */
  launch(instance: Ec2Instance): void {
    this.#state.instances.set(instance.id, instance);
    this.#emit(instance);
    this.#after(this.timings.startMs, () => {
      if (instance.state === 'pending') this.setState(instance.id, 'running', '');
    });
  }

  /** Starts terminating; returns the state it was in. Terminated instances stay terminated. */
  terminate(id: string, reason = 'User initiated'): InstanceStateName {
    const instance = this.#state.instances.get(id);
    if (!instance) throw new Error(`aws mock: no instance ${id}`);
    const previous = instance.state;
    if (previous === 'terminated' || previous === 'shutting-down') return previous;
    this.setState(id, 'shutting-down', `${reason} (${new Date(this.#clock.now()).toISOString()})`);
    this.#after(this.timings.terminateMs, () =>
      this.setState(id, 'terminated', instance.stateTransitionReason),
    );
    return previous;
  }

  /**
   * Puts an instance in a state at once (tests use it for stops and spot reclaims). Reaching
   * `terminated` frees its address and schedules it to drop out of DescribeInstances.
   */
  setState(id: string, state: InstanceStateName, reason: string): void {
    const instance = this.#state.instances.get(id);
    if (!instance || instance.state === state || instance.state === 'terminated') return;
    instance.state = state;
    instance.stateTransitionReason = reason;
    if (state === 'terminated') {
      instance.terminatedAt = this.#clock.now();
      const subnet = this.#state.subnets.get(instance.subnetId);
      if (subnet) subnet.availableIps++;
      this.#after(this.timings.terminatedRetentionMs, () => this.#state.instances.delete(id));
    }
    this.#emit(instance);
  }

  /** Cancels every scheduled transition (on close). */
  stop(): void {
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
  }

  #after(ms: number, fn: () => void): void {
    const cancel = this.#timers.after(ms, () => {
      this.#cancels.delete(cancel);
      fn();
    });
    this.#cancels.add(cancel);
  }

  #emit(instance: Ec2Instance): void {
    for (const listener of this.#listeners) listener(instance);
  }
}
