import {
  decodeEntry,
  decodeManagedFields,
  encodeEntry,
  encodeManagedFields,
  type FieldOwnership,
  type FieldPath,
  pathFromKey,
} from '../managed-fields.js';
import type { ManagedFieldsEntry } from '../object.js';
import { deepFreeze } from './frozen.js';

/**
 * `decodeManagedFields` and `encodeManagedFields` for the in-memory cluster, remembering each
 * entry it decoded or encoded. Stored versions share their managedFields entries (they are
 * frozen), and a write changes one manager's entry at most, so every write used to decode and
 * re-encode the entries of managers it did not touch; now those come back as they were.
 *
 * It also parses path keys once each (`path`): the same few hundred field paths recur in every
 * object of a kind.
 *
 * Contract: the ownerships `decode` returns are shared between calls and must not be changed
 * (`recordUpdate` and `applyConfiguration` copy an entry before changing it), and the entries
 * `encode` returns are frozen.
 */
export class ManagedFieldsCodec {
  readonly #decoded = new WeakMap<ManagedFieldsEntry, FieldOwnership>();
  readonly #encoded = new WeakMap<FieldOwnership, ManagedFieldsEntry>();
  readonly #paths = new Map<string, FieldPath>();

  /** `pathFromKey`, remembered (a bounded memo: it starts over past 100,000 keys). */
  readonly path = (key: string): FieldPath => {
    let path = this.#paths.get(key);
    if (path === undefined) {
      if (this.#paths.size >= 100_000) this.#paths.clear();
      path = Object.freeze(pathFromKey(key));
      this.#paths.set(key, path);
    }
    return path;
  };

  decode(entries: readonly ManagedFieldsEntry[] | undefined): FieldOwnership[] {
    return decodeManagedFields(entries, (entry) => {
      let owner = this.#decoded.get(entry);
      if (owner === undefined) {
        owner = decodeEntry(entry);
        this.#decoded.set(entry, owner);
      }
      return owner;
    });
  }

  encode(owners: readonly FieldOwnership[]): ManagedFieldsEntry[] {
    return encodeManagedFields(owners, (owner) => {
      let entry = this.#encoded.get(owner);
      if (entry === undefined) {
        entry = deepFreeze(encodeEntry(owner, this.path));
        this.#encoded.set(owner, entry);
        this.#decoded.set(entry, owner);
      }
      return entry;
    });
  }
}
