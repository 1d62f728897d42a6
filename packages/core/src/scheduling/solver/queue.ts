/**
 * Karpenter's scheduling queue over pod indices: pods are tried in order, a pod that fails goes
 * to the back, and the queue stops once a pod comes round again with no pod scheduled (and no
 * pod relaxed) since it was pushed back, i.e. after a full cycle without progress.
 */
export class PodQueue {
  #items: number[];
  #head = 0;
  /** Queue length right after each pod was last pushed back unrelaxed. */
  readonly #lastLen = new Map<number, number>();

  constructor(items: readonly number[]) {
    this.#items = items.slice();
  }

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The next pod, or undefined when empty or when a full cycle made no progress. */
  pop(): number | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const p = this.#items[this.#head]!;
    if (this.#lastLen.get(p) === this.length) return undefined;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return p;
  }

  /** Puts a failed pod at the back; a relaxed pod counts as progress. */
  push(p: number, relaxed: boolean): void {
    this.#items.push(p);
    if (relaxed) this.#lastLen.clear();
    else this.#lastLen.set(p, this.length);
  }

  /** The pods still queued, front first. */
  remaining(): number[] {
    return this.#items.slice(this.#head);
  }
}
