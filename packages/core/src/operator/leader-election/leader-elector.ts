import type { Logger } from 'pino';
import type { Clock } from '../../clock/clock.js';
import { withDeadline } from '../../clock/deadline.js';
import { afterAnIoTurn } from '../../clock/io-turn.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../kube/errors.js';
import type { ClusterPort } from '../../kube/port.js';
import { decideLease, releasedLease, sameRecord } from './decide.js';
import { type Lease, type LeaseSpec, Leases, microTime } from './lease.js';

/** Which Lease to contend for, as whom, and client-go's three durations. */
export interface LeaderElectionConfig {
  readonly namespace: string;
  readonly name: string;
  /** Unique per replica (`<hostname>_<random>`); written as the lease's holderIdentity. */
  readonly identity: string;
  /** How long a lease is valid after the last renewal others observed; default 15 s. */
  readonly leaseDurationMs?: number;
  /** A leader that has not renewed for this long gives up; default 10 s (< leaseDuration). */
  readonly renewDeadlineMs?: number;
  /** Between attempts to acquire or renew; default 2 s (< renewDeadline). */
  readonly retryPeriodMs?: number;
}

/** What a LeaderElector is built from. */
export interface LeaderElectorDependencies {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** Called as leadership changes; synchronous, so leadership state never races a callback. */
export interface LeadershipHandlers {
  /** This replica now holds the lease: start the controllers. */
  onStartedLeading(): void;
  /**
   * This replica lost the lease (renewals failed for renewDeadline, or another holder was
   * found): stop the controllers at once. Not called by `stop()`.
   */
  onStoppedLeading(reason: string): void;
}

type State = 'idle' | 'candidate' | 'leading' | 'stopped';

/** client-go's defaults, which controller-runtime and Karpenter keep. */
export const DefaultLeaseDurationMs = 15_000;
export const DefaultRenewDeadlineMs = 10_000;
export const DefaultRetryPeriodMs = 2_000;

/**
 * Leader election on a `coordination.k8s.io/v1` Lease with client-go's semantics: a candidate
 * tries every retryPeriod to acquire the lease (when absent, free or expired); the leader
 * renews it every retryPeriod and gives up — calling `onStoppedLeading` — once renewDeadline
 * passes without a successful renewal, which is before any other candidate can consider the
 * lease expired (leaseDuration after it last saw it change). Writes are optimistic (the read's
 * resourceVersion), so two candidates never both win one round. `stop()` releases a held lease
 * so a standby takes over at its next retry. Once leadership is lost the elector is done (as
 * client-go's Run returns); build a new one to contend again.
 *
 * A leader renews as client-go does since 1.30: one update of the lease it last wrote, without
 * reading it first, falling back to read-then-write when that update fails. Its rounds start
 * retryPeriod apart (at once after a slow one), a renewal may take until the renew deadline,
 * and timeouts give pending I/O one turn of the event loop first, so an answer that arrived
 * while the loop was held is not counted as lost. A leader so keeps its lease while the
 * apiserver answers a renewal within renewDeadline / 2 (5 s by default).
 */
export class LeaderElector {
  readonly #deps: LeaderElectorDependencies;
  readonly #config: Required<LeaderElectionConfig>;
  readonly #logger: Logger;
  #handlers: LeadershipHandlers | undefined;
  #state: State = 'idle';
  #observed: { spec: LeaseSpec | undefined; at: number } | undefined;
  #tick: Cancel | undefined;
  #deadline: Cancel | undefined;
  #attempt: Promise<void> | undefined;
  #loggedHolder: string | undefined;
  /** When the last renewal stops vouching for this replica's lead (renewedAt + renewDeadline). */
  #leadingUntilMs: number | undefined;
  #led = false;
  /** The lease as this replica last wrote it while leading: the fast path renews it blindly. */
  #held: Lease | undefined;
  /** Timeouts that let I/O already waiting be handled first (see afterAnIoTurn). */
  readonly #lenientTimers: Timers;

  constructor(deps: LeaderElectorDependencies, config: LeaderElectionConfig) {
    const resolved = {
      leaseDurationMs: DefaultLeaseDurationMs,
      renewDeadlineMs: DefaultRenewDeadlineMs,
      retryPeriodMs: DefaultRetryPeriodMs,
      ...config,
    };
    if (resolved.identity === '') throw new Error('leader election: identity must not be empty');
    if (resolved.leaseDurationMs <= resolved.renewDeadlineMs) {
      throw new Error(
        `leader election: leaseDuration (${resolved.leaseDurationMs} ms) must be greater than renewDeadline (${resolved.renewDeadlineMs} ms)`,
      );
    }
    if (resolved.renewDeadlineMs <= resolved.retryPeriodMs) {
      throw new Error(
        `leader election: renewDeadline (${resolved.renewDeadlineMs} ms) must be greater than retryPeriod (${resolved.retryPeriodMs} ms)`,
      );
    }
    this.#deps = deps;
    this.#config = resolved;
    this.#logger = deps.logger.child({ component: 'leader-election' });
    this.#lenientTimers = afterAnIoTurn(deps.timers);
  }

  /** This replica's identity. */
  get identity(): string {
    return this.#config.identity;
  }

  /** Whether this replica holds the lease right now. */
  isLeader(): boolean {
    return this.#state === 'leading';
  }

  /**
   * Why this replica must not write to the cluster now, or undefined when it may: once it has
   * led and stopped leading (lost or released), and while leading once its last renewal is
   * older than renewDeadline — from then on a standby may acquire the lease as soon as it
   * expires, so writes are refused before the deadline timer has even fired (a busy event loop
   * can fire it late). A replica that never led is not fenced: its controllers do not run.
   */
  writeRefusal(): string | undefined {
    if (!this.#led) return undefined;
    if (this.#state !== 'leading') return `${this.#config.identity} no longer leads`;
    const until = this.#leadingUntilMs ?? Number.POSITIVE_INFINITY;
    if (this.#deps.clock.now() > until)
      return `${this.#config.identity} has not renewed its lease within ${this.#config.renewDeadlineMs} ms`;
    return undefined;
  }

  /** The holder last observed (this replica when leading); undefined before the first read. */
  holder(): string | undefined {
    return this.#observed?.spec?.holderIdentity;
  }

  /** Starts contending: the first attempt runs at once. Once only. */
  start(handlers: LeadershipHandlers): void {
    if (this.#state !== 'idle') throw new Error('leader election: already started');
    this.#handlers = handlers;
    this.#state = 'candidate';
    this.#run();
  }

  /**
   * Stops contending and, if this replica holds the lease, releases it (holder cleared, 1 s duration) so a
   * standby acquires it at its next retry. Stop the controllers first. Idempotent.
   */
  async stop(): Promise<void> {
    const started = this.#state !== 'idle';
    this.#state = 'stopped';
    this.#tick?.();
    this.#deadline?.();
    await this.#attempt;
    // Also after a lost or in-flight round: #release only clears a lease that names us. Bounded,
    // so an unreachable server cannot hold up shutdown; the lease then expires by itself.
    if (started) {
      await this.#bounded(() => this.#release()).catch((err: unknown) => {
        this.#logger.warn({ err }, 'could not release the lease; it expires by itself');
      });
    }
  }

  // A method, not an inline comparison: the state changes across awaits, which narrowing ignores.
  #isStopped(): boolean {
    return this.#state === 'stopped';
  }

  #run(): void {
    if (this.#state !== 'candidate' && this.#state !== 'leading') return;
    // A request that hangs must not stall the loop: like controller-runtime's lease client
    // (timeout renewDeadline/2), give up waiting and try again. A late answer is harmless:
    // its write was optimistic, and a late success only records what the server holds.
    const startedAt = this.#deps.clock.now();
    this.#attempt = this.#bounded(() => this.#tryAcquireOrRenew(), this.#roundTimeoutMs())
      .catch((err: unknown) => {
        this.#logger.warn({ err }, 'lease round failed; retrying');
      })
      .finally(() => {
        this.#attempt = undefined;
        if (this.#state === 'candidate' || this.#state === 'leading') {
          // A leader's rounds are retryPeriod apart start to start: after a slow answer the
          // next renewal goes out at once, since the deadline counts from the last one sent.
          const elapsed = this.#deps.clock.now() - startedAt;
          const wait =
            this.#state === 'leading'
              ? Math.max(0, this.#config.retryPeriodMs - elapsed)
              : this.#config.retryPeriodMs;
          this.#tick = this.#deps.timers.after(wait, () => this.#run());
        }
      });
  }

  /**
   * How long one round may wait for the server. A candidate: the lease client's request timeout
   * (renewDeadline / 2, as controller-runtime's), so a hung request is retried. A leader: until
   * its renew deadline, at least that much. Retrying after 5 s of a slow apiserver would leave
   * the retry a second before the deadline, so waiting longer keeps more leaders than it loses.
   */
  #roundTimeoutMs(): number {
    const request = this.#config.renewDeadlineMs / 2;
    if (this.#state !== 'leading' || this.#leadingUntilMs === undefined) return request;
    return Math.max(request, this.#leadingUntilMs - this.#deps.clock.now());
  }

  /** `work` given up after `timeoutMs` (by default the lease client's request timeout). */
  #bounded(work: () => Promise<void>, timeoutMs = this.#config.renewDeadlineMs / 2): Promise<void> {
    return withDeadline(
      this.#lenientTimers,
      timeoutMs,
      undefined,
      () => new Error(`lease request timed out after ${timeoutMs} ms`),
      () => work(),
    );
  }

  async #tryAcquireOrRenew(): Promise<void> {
    if (this.#state === 'leading' && this.#held !== undefined && (await this.#renewHeld())) return;
    const { cluster, clock } = this.#deps;
    const key = { namespace: this.#config.namespace, name: this.#config.name };
    let lease: Lease | undefined;
    try {
      lease = await cluster.get(Leases, key);
    } catch (err) {
      if (!isNotFound(err)) {
        this.#logger.warn({ err, lease: key }, 'could not read the leader election lease; retrying');
        return;
      }
    }
    const now = clock.now();
    if (this.#isStopped()) return;
    const current = lease === undefined ? undefined : (lease.spec ?? {});
    if (this.#observed === undefined || !sameRecord(current, this.#observed.spec)) {
      this.#observed = { spec: current, at: now };
    }
    const decision = decideLease({
      current,
      observedAt: this.#observed.at,
      now,
      identity: this.#config.identity,
      leaseDurationMs: this.#config.leaseDurationMs,
      formatTime: microTime,
    });
    if (decision.action === 'wait') {
      if (this.#state === 'leading') {
        this.#lose(`the lease is held by ${decision.holder}`);
        return;
      }
      if (this.#loggedHolder !== decision.holder) {
        this.#loggedHolder = decision.holder;
        this.#logger.info(
          { identity: this.#config.identity, holder: decision.holder, reason: decision.reason },
          'waiting for leadership',
        );
      }
      return;
    }
    let written: Lease;
    try {
      written =
        decision.action === 'create' || lease === undefined
          ? await cluster.create(Leases, {
              apiVersion: Leases.apiVersion,
              kind: Leases.kind,
              metadata: { name: key.name, namespace: key.namespace },
              spec: decision.spec,
            })
          : await cluster.update(Leases, { ...lease, spec: decision.spec });
    } catch (err) {
      // Another candidate wrote first: this round is lost, the next read shows the winner.
      const raced = isConflict(err) || isAlreadyExists(err);
      this.#logger[raced ? 'debug' : 'warn'](
        { err, lease: key, action: decision.action },
        raced ? 'lost a race for the lease; retrying' : 'could not write the lease; retrying',
      );
      return;
    }
    if (this.#isStopped()) return;
    this.#recordWritten(written, now);
    if (this.#state === 'candidate') {
      this.#state = 'leading';
      this.#led = true;
      this.#loggedHolder = this.#config.identity;
      this.#logger.info(
        {
          identity: this.#config.identity,
          lease: key,
          ...(decision.action === 'acquire' && decision.previousHolder !== ''
            ? { previousHolder: decision.previousHolder }
            : {}),
          leaseTransitions: written.spec?.leaseTransitions ?? 0,
        },
        'became leader',
      );
      this.#handlers?.onStartedLeading();
    }
  }

  /**
   * client-go's fast path: update the lease this replica last wrote, with its resourceVersion,
   * so a renewal costs one request. False when that fails (someone else wrote it, or the server
   * did not take it): the caller reads and decides as a candidate would.
   */
  async #renewHeld(): Promise<boolean> {
    const held = this.#held;
    if (held === undefined) return false;
    const now = this.#deps.clock.now();
    const decision = decideLease({
      current: held.spec ?? {},
      observedAt: now,
      now,
      identity: this.#config.identity,
      leaseDurationMs: this.#config.leaseDurationMs,
      formatTime: microTime,
    });
    if (decision.action !== 'renew') return false;
    let written: Lease;
    try {
      written = await this.#deps.cluster.update(Leases, { ...held, spec: decision.spec });
    } catch (err) {
      this.#held = undefined;
      this.#logger.debug({ err }, 'optimistic lease renewal failed; reading the lease');
      return false;
    }
    if (this.#isStopped()) return true;
    this.#recordWritten(written, now);
    return true;
  }

  /** A write of ours the server accepted at `writtenAt` (taken before the request was sent). */
  #recordWritten(written: Lease, writtenAt: number): void {
    this.#observed = { spec: written.spec, at: writtenAt };
    this.#held = written;
    this.#armDeadline(writtenAt);
  }

  /**
   * Gives up renewDeadline after `renewedAt` unless a later renewal re-arms it. The check runs
   * after an I/O turn and reads the deadline again: a renewal answered while the loop was held
   * still counts.
   */
  #armDeadline(renewedAt: number): void {
    this.#deadline?.();
    this.#leadingUntilMs = renewedAt + this.#config.renewDeadlineMs;
    const remaining = this.#leadingUntilMs - this.#deps.clock.now();
    this.#deadline = this.#lenientTimers.after(remaining, () => {
      const until = this.#leadingUntilMs ?? Number.NEGATIVE_INFINITY;
      if (this.#state === 'leading' && this.#deps.clock.now() >= until) {
        this.#lose(`the lease was not renewed within ${this.#config.renewDeadlineMs} ms`);
      }
    });
  }

  #lose(reason: string): void {
    this.#state = 'stopped';
    this.#tick?.();
    this.#deadline?.();
    this.#logger.error({ identity: this.#config.identity, reason }, 'lost leadership');
    this.#handlers?.onStoppedLeading(reason);
  }

  async #release(): Promise<void> {
    const { cluster, clock } = this.#deps;
    const key = { namespace: this.#config.namespace, name: this.#config.name };
    try {
      const lease = await cluster.get(Leases, key);
      if ((lease.spec?.holderIdentity ?? '') !== this.#config.identity) return;
      await cluster.update(Leases, {
        ...lease,
        spec: releasedLease(lease.spec ?? {}, clock.now(), microTime),
      });
      this.#logger.info({ identity: this.#config.identity, lease: key }, 'released leadership');
    } catch (err) {
      this.#logger.warn({ err, lease: key }, 'could not release the lease; it expires by itself');
    }
  }
}
