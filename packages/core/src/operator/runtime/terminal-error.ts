/**
 * A reconcile failure that retrying cannot mend: the object asks for something impossible, and
 * only a change to it (which a watch queues anyway) can help. controller-runtime's
 * `reconcile.TerminalError`, kept under its semantics: the runner logs it, counts it in
 * `controller_runtime_reconcile_errors_total` and `controller_runtime_terminal_reconcile_errors_total`,
 * and does not requeue the key, so an impossible object costs one reconcile per change instead
 * of a backoff loop forever.
 *
 * Throw it only when the next attempt is certain to fail the same way; a transient failure (an
 * apiserver or cloud error, a conflict) must stay a plain error, which the runner retries.
 */
export class TerminalReconcileError extends Error {
  override readonly name = 'TerminalReconcileError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `err`, or an error it wraps through `cause`, is a {@link TerminalReconcileError}. Pure. */
export function isTerminalReconcileError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current instanceof Error && !seen.has(current)) {
    if (current instanceof TerminalReconcileError) return true;
    seen.add(current);
    current = current.cause;
  }
  return false;
}
