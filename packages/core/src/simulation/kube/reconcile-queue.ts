/**
 * A serial work queue of keys, as client-go's workqueue with one worker: a key enqueued while
 * queued is processed once; keys are taken in sorted order so runs are deterministic.
 *
 * `enqueue` returns a promise that settles when the queue is next empty. Watch handlers
 * return it, which keeps the in-memory cluster's `settled()` waiting for the work; only the
 * caller that started the drain sees reconcile errors (the others would report duplicates).
 */
export class ReconcileQueue {
  readonly #reconcile: (key: string) => Promise<void>;
  readonly #queued = new Set<string>();
  #draining: Promise<void> | undefined;

  constructor(reconcile: (key: string) => Promise<void>) {
    this.#reconcile = reconcile;
  }

  enqueue(...keys: string[]): Promise<void> {
    for (const key of keys) this.#queued.add(key);
    if (this.#draining !== undefined) return this.#draining.catch(() => {});
    if (this.#queued.size === 0) return Promise.resolve();
    this.#draining = this.#drain();
    return this.#draining;
  }

  async #drain(): Promise<void> {
    const errors: unknown[] = [];
    // Yield once so `#draining` is set before any reconcile can enqueue more keys.
    await Promise.resolve();
    while (this.#queued.size > 0) {
      let next: string | undefined;
      for (const key of this.#queued) if (next === undefined || key < next) next = key;
      this.#queued.delete(next!);
      try {
        await this.#reconcile(next!);
      } catch (err) {
        errors.push(err);
      }
    }
    // Cleared in the same turn as the emptiness check, so no enqueue can fall in between.
    this.#draining = undefined;
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} reconcile errors`);
  }
}
