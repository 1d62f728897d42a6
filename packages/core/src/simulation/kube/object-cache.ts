import type { KubeObject } from '../../kube/object.js';
import type { WatchEvent } from '../../kube/watch.js';

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function cacheKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace === undefined ? (name ?? '') : `${namespace}/${name ?? ''}`;
}

function revisionOf(obj: KubeObject): number {
  const rv = Number(obj.metadata.resourceVersion);
  return Number.isFinite(rv) ? rv : 0;
}

/**
 * An informer's store for one kind, fed by a watch and by the plug-in's own writes. The
 * plug-in records what it wrote as soon as the write returns, so a reconcile that runs before
 * the watch delivers that change does not act on stale state (creating a pod twice). Updates
 * are ordered by resourceVersion — the in-memory cluster's global revision — and deletions
 * leave a tombstone, so a late event never resurrects or rewinds an object.
 */
export class ObjectCache<T extends KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #revisions = new Map<string, number>();
  readonly #indexOf: ((obj: T) => string | undefined) | undefined;
  readonly #index = new Map<string, Set<string>>();
  readonly #counters: readonly ((obj: T) => boolean)[];
  readonly #counterNames: readonly string[];
  /** Per index value, how many of its objects each counter accepts (in `#counterNames` order). */
  readonly #counts = new Map<string, number[]>();

  /**
   * With `index`, objects can be looked up by that value (e.g. their controller's uid). With
   * `counts` as well, the cache keeps, per index value, how many of its objects each named
   * predicate accepts, updated on every change, so a reconcile that only needs those numbers
   * does not list and test every object of its owner on every event.
   */
  constructor(
    options: {
      index?: (obj: T) => string | undefined;
      counts?: Readonly<Record<string, (obj: T) => boolean>>;
    } = {},
  ) {
    this.#indexOf = options.index;
    this.#counterNames = Object.keys(options.counts ?? {});
    this.#counters = Object.values(options.counts ?? {});
  }

  /**
   * Applies a watch event; returns the previous state and whether anything changed (an event
   * older than what is cached changes nothing).
   */
  apply(event: WatchEvent<T>): { changed: boolean; previous: T | undefined; current: T | undefined } {
    if (event.type === 'ERROR') return { changed: false, previous: undefined, current: undefined };
    return event.type === 'DELETED' ? this.remove(event.object) : this.observe(event.object);
  }

  /** Records an object's state (from a watch or a write result) unless a newer one is known. */
  observe(obj: T): { changed: boolean; previous: T | undefined; current: T | undefined } {
    const key = cacheKey(obj);
    const previous = this.#items.get(key);
    const rv = revisionOf(obj);
    if (rv < (this.#revisions.get(key) ?? -1)) return { changed: false, previous, current: previous };
    this.#revisions.set(key, rv);
    this.#items.set(key, obj);
    this.#reindex(key, previous, obj);
    return { changed: true, previous, current: obj };
  }

  /** Records that an object is gone as of its (deletion) resourceVersion. */
  remove(obj: T): { changed: boolean; previous: T | undefined; current: T | undefined } {
    const key = cacheKey(obj);
    const previous = this.#items.get(key);
    const rv = revisionOf(obj);
    if (rv < (this.#revisions.get(key) ?? -1)) return { changed: false, previous, current: previous };
    this.#revisions.set(key, rv);
    this.#items.delete(key);
    this.#reindex(key, previous, undefined);
    return { changed: previous !== undefined, previous, current: undefined };
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Every cached object, sorted by key, so callers iterate deterministically. */
  list(): T[] {
    return [...this.#items.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  }

  /** Unsorted iteration, for hot paths that do not depend on order. */
  values(): IterableIterator<T> {
    return this.#items.values();
  }

  get size(): number {
    return this.#items.size;
  }

  /** The objects whose index value is `value`, sorted by key (empty without an index). */
  byIndex(value: string): T[] {
    const keys = [...(this.#index.get(value) ?? [])].sort();
    return keys.map((k) => this.#items.get(k)!);
  }

  /** How many objects with index value `value` the counter `name` accepts (0 for unknown names). */
  countByIndex(value: string, name: string): number {
    const at = this.#counterNames.indexOf(name);
    return at < 0 ? 0 : (this.#counts.get(value)?.[at] ?? 0);
  }

  #reindex(key: string, previous: T | undefined, current: T | undefined): void {
    if (this.#indexOf === undefined) return;
    const before = previous === undefined ? undefined : this.#indexOf(previous);
    const after = current === undefined ? undefined : this.#indexOf(current);
    if (this.#counters.length > 0) {
      if (before !== undefined) this.#count(before, previous as T, -1);
      if (after !== undefined) this.#count(after, current as T, 1);
    }
    if (before === after) return;
    if (before !== undefined) {
      const set = this.#index.get(before);
      set?.delete(key);
      if (set?.size === 0) this.#index.delete(before);
    }
    if (after !== undefined) {
      const set = this.#index.get(after);
      if (set === undefined) this.#index.set(after, new Set([key]));
      else set.add(key);
    }
  }

  #count(value: string, obj: T, sign: 1 | -1): void {
    let counts = this.#counts.get(value);
    if (counts === undefined) {
      counts = new Array<number>(this.#counters.length).fill(0);
      this.#counts.set(value, counts);
    }
    for (let i = 0; i < this.#counters.length; i++) if (this.#counters[i]!(obj)) counts[i]! += sign;
    if (sign < 0 && counts.every((n) => n === 0)) this.#counts.delete(value);
  }
}
