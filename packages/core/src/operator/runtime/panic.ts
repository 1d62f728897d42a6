/**
 * Whether a reconcile's failure is what Go would call a panic: a programming error the runtime
 * raised (`TypeError`: reading a property of undefined, calling a non-function; `RangeError`;
 * `ReferenceError`; `SyntaxError` from code, not from parsing input the reconciler chose to
 * parse) rather than an error the reconciler or a client threw on purpose. controller-runtime
 * recovers a reconcile's panic and counts it in `controller_runtime_reconcile_panics_total`
 * besides the errors; counting these keeps that series meaningful here: a non-zero rate is a bug,
 * not a flaky apiserver. Pure.
 */
export function isReconcilePanic(err: unknown): boolean {
  return (
    err instanceof TypeError ||
    err instanceof RangeError ||
    err instanceof ReferenceError ||
    err instanceof SyntaxError
  );
}
