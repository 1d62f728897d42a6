import type { NodeInfo } from './node-info.js';

/** A node's score as of one of its versions. */
export interface RankedEntry {
  readonly node: NodeInfo;
  readonly score: number;
  readonly version: number;
}

/** kube-scheduler's pick among feasible nodes here: the higher score, then the first by name. */
function before(a: RankedEntry, b: RankedEntry): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return a.node.name < b.node.name;
}

/**
 * Feasible nodes in the order the scheduler picks them (a binary heap). An entry goes stale
 * when its node changes; stale entries are not removed when that happens but skipped when they
 * reach the top, and the heap is rebuilt when they outnumber the live ones.
 */
export class RankedNodes {
  #heap: RankedEntry[] = [];

  get size(): number {
    return this.#heap.length;
  }

  push(entry: RankedEntry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** The first entry `live` accepts, dropping the stale ones above it. */
  best(live: (entry: RankedEntry) => boolean): RankedEntry | undefined {
    while (this.#heap.length > 0) {
      const top = this.#heap[0]!;
      if (live(top)) return top;
      this.#popTop();
    }
    return undefined;
  }

  /** Keeps only the entries `live` accepts. */
  rebuild(live: (entry: RankedEntry) => boolean): void {
    const kept = this.#heap.filter(live);
    this.#heap = [];
    for (const entry of kept) this.push(entry);
  }

  #popTop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < heap.length && before(heap[left]!, heap[first]!)) first = left;
      if (right < heap.length && before(heap[right]!, heap[first]!)) first = right;
      if (first === i) return;
      [heap[i], heap[first]] = [heap[first]!, heap[i]!];
      i = first;
    }
  }
}
