/**
 * The values one topology key takes (zones, hostnames, ...), interned to small integers so
 * counts can live in typed arrays. Ids are assigned in registration order; {@link sortedIds}
 * gives them in name order, which is how ties between domains are broken.
 */
export class DomainRegistry {
  readonly key: string;
  /** Small index of the key within its topology, for per-target caches. */
  readonly slot: number;
  readonly #names: string[] = [];
  readonly #ids = new Map<string, number>();
  #sorted: Int32Array | undefined;

  constructor(key: string, slot = 0) {
    this.key = key;
    this.slot = slot;
  }

  /** The id of a domain, registering it if new. */
  id(name: string): number {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.#names.length;
      this.#names.push(name);
      this.#ids.set(name, id);
      this.#sorted = undefined;
    }
    return id;
  }

  /** The id of a known domain, or -1. */
  find(name: string): number {
    return this.#ids.get(name) ?? -1;
  }

  name(id: number): string {
    return this.#names[id]!;
  }

  get size(): number {
    return this.#names.length;
  }

  /** Every id, ordered by domain name. */
  sortedIds(): Int32Array {
    if (this.#sorted === undefined) {
      const names = this.#names;
      const ids = Array.from(names.keys()).sort((a, b) =>
        names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0,
      );
      this.#sorted = Int32Array.from(ids);
    }
    return this.#sorted;
  }
}
