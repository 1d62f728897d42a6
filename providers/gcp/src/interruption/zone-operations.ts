import type { Clock, Timers } from '@nodewright/core/clock';
import { sleep } from '@nodewright/core/clock';
import type {
  InterruptionKind,
  InterruptionNotice,
  InterruptionSource,
  UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import { capacityTypeOf } from '../instance/hydrate.js';
import { formatProviderID } from '../instance/provider-id.js';
import type { GcpLogger } from '../refresh/logger.js';
import { type GceComputeApi, type GceOperation, isGceNotFound } from '../sdk/compute-api.js';

/** The zone operations GCE records when it takes or moves a VM, and what each announces. */
export const InterruptionOperations: Readonly<Record<string, InterruptionKind>> = {
  'compute.instances.preempted': 'SpotInterruption',
  'compute.instances.hostMaintenance': 'ScheduledMaintenance',
};

/** How often the zones' operations are listed. */
export const OperationsPollMs = 10_000;
/** At start, operations this recent still count (a restart must not miss a preemption). */
export const LookbackMs = 5 * 60_000;

export interface ZoneOperationsSourceDeps {
  readonly compute: Pick<GceComputeApi, 'listOperations' | 'getInstance'>;
  readonly project: string;
  readonly zones: () => readonly string[];
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: GcpLogger;
  /**
   * Marked at once for a preempted spot offering: the VM may be gone, and its NodeClaim with it,
   * before core handles the notice (core marks only offerings of claims it still finds).
   */
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly pollMs?: number;
}

/** How long a preempted spot offering stays unavailable. */
export const PreemptedOfferingTtlMs = 30 * 60_000;

/** The zone and name of an operation's target (`.../zones/Z/instances/N`), if it is an instance. */
export function operationTarget(op: GceOperation): { zone: string; name: string } | undefined {
  const m = /\/zones\/([^/]+)\/instances\/([^/]+)$/.exec(op.targetLink ?? '');
  return m === null ? undefined : { zone: m[1]!, name: m[2]! };
}

/**
 * Interruptions from Compute Engine's zone operations: every `compute.instances.preempted` (a
 * spot VM taken) and `compute.instances.hostMaintenance` operation since the last poll, in every
 * zone of the region, becomes a notice for the VM it targets. A preemption names the offering
 * (read from the VM, which stays listed while it stops) so core marks it unavailable. Polls every
 * 10 s on the injected timers; each operation is delivered until acknowledged.
 */
export class ZoneOperationsSource implements InterruptionSource {
  readonly #deps: ZoneOperationsSourceDeps;
  readonly #pending = new Map<string, InterruptionNotice>();
  readonly #acked = new Set<string>();
  #since: number;
  #polled = false;

  constructor(deps: ZoneOperationsSourceDeps) {
    this.#deps = deps;
    this.#since = deps.clock.now() - LookbackMs;
  }

  async receive(signal?: AbortSignal): Promise<InterruptionNotice[]> {
    if (this.#polled) await sleep(this.#deps.timers, this.#deps.pollMs ?? OperationsPollMs, signal);
    this.#polled = true;
    const since = new Date(this.#since).toISOString();
    this.#since = this.#deps.clock.now();
    const listed = new Set<string>();
    let complete = true;
    for (const zone of this.#deps.zones()) {
      for (const [type, kind] of Object.entries(InterruptionOperations)) {
        let ops: GceOperation[];
        try {
          ops = await this.#deps.compute.listOperations(
            zone,
            `(operationType = "${type}") AND (insertTime > "${since}")`,
          );
        } catch (err) {
          this.#deps.logger.error(
            { err, zone, operationType: type },
            'could not list zone operations; retrying next poll',
          );
          this.#since = Math.min(this.#since, Date.parse(since));
          complete = false;
          continue;
        }
        for (const op of ops) {
          const id = op.name ?? '';
          listed.add(id);
          if (id === '' || this.#acked.has(id) || this.#pending.has(id)) continue;
          const notice = await this.#notice(op, kind);
          if (notice !== undefined) this.#pending.set(id, notice);
        }
      }
    }
    // An acknowledged operation older than this poll's window is never listed again.
    if (complete) for (const id of this.#acked) if (!listed.has(id)) this.#acked.delete(id);
    return [...this.#pending.values()];
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    this.#pending.delete(notice.id);
    this.#acked.add(notice.id);
  }

  async #notice(op: GceOperation, kind: InterruptionKind): Promise<InterruptionNotice | undefined> {
    const target = operationTarget(op);
    if (target === undefined) {
      this.#deps.logger.warn(
        { operation: op.name, targetLink: op.targetLink },
        'interruption operation without an instance target; dropped',
      );
      return undefined;
    }
    const providerID = formatProviderID({ project: this.#deps.project, ...target });
    let offering: InterruptionNotice['offering'];
    if (kind === 'SpotInterruption') {
      try {
        const vm = await this.#deps.compute.getInstance(target.zone, target.name);
        const machineType = (vm.machineType ?? '').slice((vm.machineType ?? '').lastIndexOf('/') + 1);
        offering = { capacityType: capacityTypeOf(vm), instanceType: machineType, zone: target.zone };
        this.#deps.unavailableOfferings?.markUnavailable(
          offering,
          `preempted (${op.name ?? 'zone operation'})`,
          PreemptedOfferingTtlMs,
        );
      } catch (err) {
        // Gone already: the notice still drains the node; only the offering mark is lost.
        if (!isGceNotFound(err)) throw err;
      }
    }
    return {
      id: op.name ?? '',
      kind,
      providerID,
      ...(offering === undefined ? {} : { offering }),
      message: `${op.operationType ?? kind} of ${target.zone}/${target.name} at ${op.insertTime ?? 'an unknown time'}`,
    };
  }
}
