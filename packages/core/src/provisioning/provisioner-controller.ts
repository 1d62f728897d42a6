import type { Pod } from '../apis/kubernetes/pod.js';
import type { Clock } from '../clock/clock.js';
import type { ObjectKey } from '../kube/object.js';
import type { ClusterPort } from '../kube/port.js';
import { Pods } from '../kube/resource-types.js';
import { skipWhileUnsynced } from '../operator/runtime/cache-sync.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
} from '../operator/runtime/controller.js';
import type { ClusterState } from '../state/cluster-state.js';
import { podRole } from '../state/pod-role.js';
import type { BatchOptions } from './batch-window.js';
import { Batcher } from './batcher.js';
import type { Provisioner } from './provisioner.js';

/** The key the singleton provisioner reconciles. */
const ProvisionerKey: ObjectKey = { name: 'provisioner' };

/** What the provisioner controller is built from. */
export interface ProvisionerControllerDependencies {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly state: ClusterState;
  readonly provisioner: Provisioner;
}

/** Knobs of the provisioner controller. */
export interface ProvisionerControllerOptions {
  /** Batch durations; default 1 s idle, 10 s max. */
  readonly batch?: BatchOptions;
  /**
   * While pods stay provisionable after a pass (unschedulable, or their claim was not
   * created), a new batch opens this long after it; Karpenter's pod trigger requeues every 10 s.
   */
  readonly retriggerMs?: number;
  /** How long to wait before trying again when the state has not seen every Node and NodeClaim; default 1 s. */
  readonly unsyncedRetryMs?: number;
}

/**
 * `provisioning.provisioner`: a singleton. A pending pod kube-scheduler marked Unschedulable
 * (and the provisioner has not nominated) opens a batch or extends it; when the batch closes
 * (1 s without a new pod, or 10 s in all) the state must have seen every Node and NodeClaim
 * the API server lists, then one Provisioner pass runs. Afterwards it wakes up when the next
 * nomination ends, or after `retriggerMs` while pods are still waiting, and opens a new batch
 * if provisionable pods are there. Waiting is done with `requeueAfterMs`, never by sleeping.
 */
export class ProvisionerController implements Controller {
  readonly name = 'provisioning.provisioner';
  readonly watches;
  readonly initialKeys = [ProvisionerKey];
  readonly maxConcurrentReconciles = 1;
  readonly #deps: ProvisionerControllerDependencies;
  readonly #batcher: Batcher;
  readonly #retriggerMs: number;
  readonly #unsyncedRetryMs: number;
  /** When the last pass left pods waiting: the next batch opens at this time. */
  #retriggerAt: number | undefined;

  constructor(deps: ProvisionerControllerDependencies, options: ProvisionerControllerOptions = {}) {
    this.#deps = deps;
    this.#batcher = new Batcher(deps.clock, options.batch);
    this.#retriggerMs = options.retriggerMs ?? 10_000;
    this.#unsyncedRetryMs = options.unsyncedRetryMs ?? 1_000;
    this.watches = [
      watchMapped(Pods, (pod, _cache, event) => {
        if (event.type === 'DELETED' || !this.#triggers(pod)) return [];
        this.#batcher.trigger();
        return [ProvisionerKey];
      }),
    ];
  }

  async reconcile(_key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { state, clock } = this.#deps;
    if (!this.#batcher.isOpen()) {
      // Woken by a timer (retrigger, a nomination ending) or at start: a batch opens only if
      // pods are waiting; pod events open batches in the watch.
      if (!this.#waiting()) {
        if (this.#retriggerAt !== undefined && this.#retriggerAt <= clock.now())
          this.#retriggerAt = undefined;
        return this.#nextWake();
      }
      this.#retriggerAt = undefined;
      this.#batcher.trigger();
    }
    const dueIn = this.#batcher.dueInMs() ?? 0;
    if (dueIn > 0) return { requeueAfterMs: dueIn };
    const unsynced = skipWhileUnsynced(context, this.#unsyncedRetryMs);
    if (unsynced !== undefined) return unsynced;
    if (!(await state.synced(this.#deps.cluster))) {
      context.logger.debug('waiting for cluster state to sync before provisioning');
      return { requeueAfterMs: this.#unsyncedRetryMs };
    }
    this.#batcher.close();
    const outcome = await this.#deps.provisioner.provision(context.logger);
    this.#retriggerAt = outcome.unschedulable > 0 ? clock.now() + this.#retriggerMs : undefined;
    return this.#nextWake();
  }

  /**
   * Whether a pod event should open or extend a batch: provisionable and not nominated (or
   * nominated to a node kube-scheduler could already have bound it to, and did not), or invalid
   * and unbound.
   */
  #triggers(object: Pod): boolean {
    try {
      const parsed = this.#deps.state.pod(object.metadata.namespace ?? 'default', object.metadata.name);
      if (parsed === undefined) {
        // Not a valid Pod (or not seen by the state yet): batch it so it is reported.
        return (object.spec?.nodeName ?? '') === '' && object.metadata.deletionTimestamp === undefined;
      }
      const { state } = this.#deps;
      return (
        this.#provisionable(object) &&
        (state.nominationOf(object) === undefined || state.isNominatedToInitializedNode(object))
      );
    } catch {
      return false;
    }
  }

  #provisionable(pod: Pod): boolean {
    return podRole(pod, { requireUnschedulable: true }).role === 'pending';
  }

  /** Whether provisionable pods that are not nominated wait: a batch has work. */
  #waiting(): boolean {
    const { state } = this.#deps;
    return state.pods().some((p) => this.#provisionable(p) && state.nominationOf(p) === undefined);
  }

  /** The earliest of: the retrigger time, the end of the next nomination. */
  #nextWake(): ReconcileResult | undefined {
    const now = this.#deps.clock.now();
    const times = [this.#retriggerAt, this.#deps.state.nextNominationExpiry()].filter(
      (t): t is number => t !== undefined,
    );
    if (times.length === 0) return undefined;
    return { requeueAfterMs: Math.max(0, Math.min(...times) - now) };
  }
}
