import { withDeadline } from '../../clock/deadline.js';
import type { Timers } from '../../clock/timers.js';
import { KubeError } from '../errors.js';

/**
 * How long an API server call may go unanswered before it is abandoned. Watches are not
 * covered: each watch connection carries its own `timeoutSeconds`, and the reflector's lists
 * get `listMs`.
 */
export interface KubeRequestTimeouts {
  /** get, create, update, patch, apply, delete, evict. */
  readonly requestMs: number;
  /** Each page of a list (a page of 500 Pods can take a while on a busy server). */
  readonly listMs: number;
}

/**
 * client-go sets no default, but an unanswered request must not hold a reconcile for ever; 30 s
 * is kubectl's usual `--request-timeout` and longer than any write the server itself allows
 * (its own request timeout is 60 s for lists and watches, less for writes in practice).
 */
export const DefaultKubeRequestTimeouts: KubeRequestTimeouts = Object.freeze({
  requestMs: 30_000,
  listMs: 60_000,
});

/** A call the API server did not answer within its deadline (HTTP 504, reason Timeout). */
export class KubeRequestTimeoutError extends KubeError {
  override readonly name = 'KubeRequestTimeoutError';
  constructor(what: string, deadlineMs: number) {
    super(504, 'Timeout', `${what}: no answer from the API server within ${deadlineMs / 1000} s`);
  }
}

/** Runs `send` with a signal aborted at the deadline; rejects with a KubeRequestTimeoutError then. */
export function withRequestDeadline<T>(
  timers: Timers,
  deadlineMs: number,
  what: string,
  parent: AbortSignal | undefined,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withDeadline(timers, deadlineMs, parent, () => new KubeRequestTimeoutError(what, deadlineMs), send);
}
