import type { NodeInfo } from './node-info.js';

/**
 * The NodeInfos that changed, in order, so a reader that saw the cluster at some position
 * needs to look again only at what changed after it. Positions are absolute; the log drops its
 * entries once it holds several times as many as there are nodes, and a reader from before
 * that is told to look at every node again, which then costs no more than the entries dropped.
 */
export class NodeChanges {
  #entries: NodeInfo[] = [];
  /** Absolute position of `#entries[0]`. */
  #base = 0;
  readonly #capacity: () => number;

  /** `nodeCount` sizes the log: it is trimmed beyond 4 entries per node (and at least 1,024). */
  constructor(nodeCount: () => number) {
    this.#capacity = () => 4 * nodeCount() + 1024;
  }

  /** The position after the last change. */
  get end(): number {
    return this.#base + this.#entries.length;
  }

  record(node: NodeInfo): void {
    if (this.#entries.length >= this.#capacity()) {
      this.#base += this.#entries.length;
      this.#entries = [];
    }
    this.#entries.push(node);
  }

  /**
   * Visits the nodes changed from `position` (an earlier `end`) on, with repeats, and returns
   * true; returns false, visiting none, when that part of the log was dropped and every node
   * must be looked at.
   */
  visitSince(position: number, visit: (node: NodeInfo) => void): boolean {
    if (position < this.#base) return false;
    for (let i = position - this.#base; i < this.#entries.length; i++) visit(this.#entries[i]!);
    return true;
  }
}
