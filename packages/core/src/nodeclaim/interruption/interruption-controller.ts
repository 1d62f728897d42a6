import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { InterruptionNotice, InterruptionSource } from '../../cloudprovider/cloud-provider.js';
import { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import { eachBounded } from '../../concurrency/each-bounded.js';
import { isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import { NodeClaims } from '../../kube/resource-types.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { recordNodeClaimDisrupted } from '../../lifecycle/metrics.js';
import type { Controller, ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';
import {
  InterruptionDisruptionReason,
  interruptionAction,
  interruptionMessage,
} from './interruption-action.js';

/** The lifecycle dependencies plus, optionally, the cache spot interruptions feed. */
export interface InterruptionDependencies extends LifecycleDependencies {
  /**
   * Where an interrupted spot offering is marked unavailable. Default: the cloud provider's own
   * `unavailableOfferings` when it exposes an UnavailableOfferingsCache; otherwise none is marked.
   */
  readonly unavailableOfferings?: UnavailableOfferingsCache;
}

/** Options of `nodeclaim.interruption`. */
export interface InterruptionOptions {
  /**
   * The least time between the starts of two receives when the first delivered nothing or
   * failed (a long-polling source waits inside `receive`, so this only paces a source that
   * answers at once, and a failing one), and how soon a notice whose handling failed is tried
   * again; default 2 s.
   */
  readonly pollIntervalMs?: number;
  /** How many notices are handled at once; default 20. */
  readonly parallelism?: number;
  /**
   * How many times a notice whose handling throws is tried before it is acknowledged (dropped)
   * and logged, so a poisoned notice is never redelivered forever; default 3.
   */
  readonly maxAttempts?: number;
  /**
   * Received notices not yet handled above which the controller stops receiving more until it
   * catches up; default 1,000.
   */
  readonly maxInbox?: number;
}

/** A received notice, how many times its handling has failed, and when it may be tried again. */
interface InboxEntry {
  readonly notice: InterruptionNotice;
  readonly failures: number;
  /** Clock ms; absent for a notice not tried yet. */
  readonly retryAt?: number;
}

/** The single key `nodeclaim.interruption` reconciles. */
const InterruptionControllerKey: ObjectKey = { name: 'interruption' };

/**
 * `nodeclaim.interruption`: a singleton that acts on the cloud's interruption notices.
 * Spot interruption, scheduled maintenance, stopping and terminated delete the NodeClaim whose
 * `status.providerID` matches (termination then cordons and drains it) and count it in
 * `nodeclaims_disrupted_total{reason="interruption"}`; a spot notice also marks its offering
 * unavailable; a rebalance recommendation only records an event. Every notice is acknowledged
 * once acted on, and notices for unknown instances are acknowledged and logged. Notices are
 * handled `parallelism` at a time, so a storm of them (hundreds of spot reclaims at once) is
 * acted on within seconds. A notice whose handling throws is tried again every poll interval; after
 * `maxAttempts` failures it is acknowledged and logged as dropped, so one poisoned notice never
 * holds the others back nor comes back forever.
 *
 * `receive` may long-poll on timers, and a reconcile must not wait on timers, so the receive
 * runs in the background: each reconcile handles what earlier receives delivered and starts one
 * when none is in flight. A receive that ends wakes the controller (`context.enqueue`), so a
 * notice is acted on as soon as it arrives, as upstream's queue loop does, and an idle
 * controller reconciles once per long poll rather than once per poll interval. A receive that
 * delivered notices starts the next one at once (the queue may hold more than one receive
 * returns), until `maxInbox` notices wait; after one that delivered nothing or failed, the next
 * starts no sooner than the poll interval after it did, so a source that answers at once is
 * asked every interval, not in a loop.
 */
export class InterruptionController implements Controller {
  readonly name = 'nodeclaim.interruption';
  readonly watches = [];
  readonly initialKeys = [InterruptionControllerKey];
  readonly #deps: InterruptionDependencies;
  readonly #pollMs: number;
  readonly #parallelism: number;
  readonly #maxAttempts: number;
  readonly #maxInbox: number;
  readonly #cache: UnavailableOfferingsCache | undefined;
  #inbox: InboxEntry[] = [];
  #receiving = false;
  /** When the next receive may start (clock ms); later than now only after an empty or failed one. */
  #nextReceiveAt = Number.NEGATIVE_INFINITY;

  constructor(deps: InterruptionDependencies, options: InterruptionOptions = {}) {
    this.#deps = deps;
    this.#pollMs = options.pollIntervalMs ?? 2_000;
    this.#parallelism = options.parallelism ?? 20;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#maxInbox = options.maxInbox ?? 1_000;
    this.#cache = deps.unavailableOfferings ?? providerCache(deps.cloudProvider);
  }

  async reconcile(_key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const source = this.#deps.cloudProvider.interruptions;
    if (source === undefined) return undefined;
    const now = this.#deps.clock.now();
    // A failed notice waits out the poll interval: wake-ups come with every receive, and
    // retrying on each would spend a notice's attempts within one burst.
    const entries: InboxEntry[] = [];
    const waiting: InboxEntry[] = [];
    for (const entry of this.#inbox) {
      (entry.retryAt === undefined || entry.retryAt <= now ? entries : waiting).push(entry);
    }
    this.#inbox = waiting;
    if (entries.length > 0) {
      let claims: Map<string, NodeClaim>;
      try {
        claims = await this.#claimsByProviderID();
      } catch (err) {
        // Keep the notices for the next reconcile rather than waiting for redelivery.
        this.#inbox = [...entries, ...this.#inbox];
        context.logger.error({ err }, 'listing nodeclaims for interruption notices');
        return { requeueAfterMs: this.#pollMs };
      }
      await eachBounded(entries, this.#parallelism, (entry) =>
        this.#handleOrRetry(entry, claims, source, context),
      );
    }
    const after = this.#deps.clock.now();
    const receiveInMs = this.#nextReceiveAt - after;
    if (receiveInMs <= 0) this.#startReceive(source, context);
    // A receive in flight wakes the controller when it ends; only a retry or a paced (or
    // failed-to-start) receive needs a timer.
    let wakeInMs = this.#receiving ? Number.POSITIVE_INFINITY : receiveInMs > 0 ? receiveInMs : this.#pollMs;
    for (const entry of this.#inbox) {
      wakeInMs = Math.min(wakeInMs, Math.max((entry.retryAt ?? after) - after, 0));
    }
    return wakeInMs === Number.POSITIVE_INFINITY ? undefined : { requeueAfterMs: wakeInMs };
  }

  #startReceive(source: InterruptionSource, context: ReconcileContext): void {
    if (this.#receiving || context.managerSignal.aborted) return;
    this.#receiving = true;
    const startedAt = this.#deps.clock.now();
    const ended = (delivered: number) => {
      this.#receiving = false;
      this.#nextReceiveAt = delivered > 0 ? Number.NEGATIVE_INFINITY : startedAt + this.#pollMs;
    };
    let received: Promise<InterruptionNotice[]>;
    try {
      // The receive outlives this reconcile: it ends with the manager, so a stopped leader's long
      // poll does not take notices (hiding them from the next leader for the visibility timeout).
      received = source.receive(context.managerSignal);
    } catch (err) {
      ended(0);
      context.logger.error({ err }, 'receiving interruption notices');
      return;
    }
    received.then(
      (notices) => {
        ended(notices.length);
        for (const notice of notices) this.#inbox.push({ notice, failures: 0 });
        if (notices.length > 0 && this.#inbox.length < this.#maxInbox) this.#startReceive(source, context);
        context.enqueue(InterruptionControllerKey);
      },
      (err: unknown) => {
        ended(0);
        if (context.managerSignal.aborted) return;
        context.logger.error({ err }, 'receiving interruption notices');
        context.enqueue(InterruptionControllerKey);
      },
    );
  }

  /** Handles one notice; a failure is retried after the poll interval, or dropped after `maxAttempts`. */
  async #handleOrRetry(
    entry: InboxEntry,
    claims: ReadonlyMap<string, NodeClaim>,
    source: InterruptionSource,
    context: ReconcileContext,
  ): Promise<void> {
    const { notice } = entry;
    try {
      await this.#handle(notice, claims.get(notice.providerID), source, context);
      return;
    } catch (err) {
      const failures = entry.failures + 1;
      const about = { err, providerID: notice.providerID, kind: notice.kind, attempts: failures };
      if (failures < this.#maxAttempts) {
        context.logger.error(about, 'handling interruption notice failed; retrying after the poll interval');
        this.#inbox.push({ notice, failures, retryAt: this.#deps.clock.now() + this.#pollMs });
        return;
      }
      context.logger.error(
        about,
        `dropping interruption notice: handling failed ${failures} times (the limit); acknowledging it so it is not redelivered`,
      );
    }
    try {
      await source.acknowledge(notice);
    } catch (err) {
      context.logger.error(
        { err, providerID: notice.providerID, kind: notice.kind },
        'acknowledging a dropped interruption notice; the source will redeliver it',
      );
    }
  }

  async #claimsByProviderID(): Promise<Map<string, NodeClaim>> {
    const { items } = await this.#deps.cluster.list(NodeClaims);
    const byID = new Map<string, NodeClaim>();
    for (const claim of items) {
      const id = claim.status?.providerID;
      if (id !== undefined && id !== '') byID.set(id, claim);
    }
    return byID;
  }

  async #handle(
    notice: InterruptionNotice,
    claim: NodeClaim | undefined,
    source: InterruptionSource,
    context: ReconcileContext,
  ): Promise<void> {
    if (claim === undefined) {
      context.logger.info(
        { providerID: notice.providerID, kind: notice.kind },
        'interruption notice for an instance no NodeClaim owns; acknowledging',
      );
      await source.acknowledge(notice);
      return;
    }
    const action = interruptionAction(notice.kind);
    if (action.markOfferingUnavailable && notice.offering !== undefined) {
      this.#cache?.markUnavailable(notice.offering, notice.kind);
    }
    const deleting = action.deleteClaim && claim.metadata.deletionTimestamp === undefined;
    if (deleting) {
      try {
        await this.#deps.cluster.delete(NodeClaims, { name: claim.metadata.name ?? '' });
        recordNodeClaimDisrupted(this.#deps.metrics, claim, InterruptionDisruptionReason);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (deleting || !action.deleteClaim) {
      await this.#deps.events.publish({
        object: claim,
        type: action.eventType,
        reason: action.eventReason,
        message: interruptionMessage(notice, deleting),
      });
      context.logger.info(
        { NodeClaim: objectRef(claim), kind: notice.kind, deadline: notice.deadline },
        deleting ? 'disrupting nodeclaim: interruption' : 'interruption notice recorded',
      );
    }
    await source.acknowledge(notice);
  }
}

function providerCache(provider: object): UnavailableOfferingsCache | undefined {
  const cache = (provider as { unavailableOfferings?: unknown }).unavailableOfferings;
  return cache instanceof UnavailableOfferingsCache ? cache : undefined;
}

/** `nodeclaim.interruption` over these dependencies; see InterruptionController. */
export function interruptionController(
  deps: InterruptionDependencies,
  options?: InterruptionOptions,
): InterruptionController {
  return new InterruptionController(deps, options);
}
