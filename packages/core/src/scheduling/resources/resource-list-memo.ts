import { parseResourceList, type ResourceList } from './resource-list.js';

/**
 * `parseResourceList` per record object, for callers that read the same objects' capacities on
 * every snapshot (cluster state cuts one per provisioning batch and per disruption pass; at 500
 * nodes the parse was a measurable share of a simulated week).
 *
 * Keyed by object identity: the contract is that the records are never changed in place (cluster
 * state replaces a node's object on every change), so an answer holds while its record lives.
 * The lists returned are shared; they are read-only by type.
 */
export class ResourceListMemo {
  readonly #kept = new WeakMap<object, ResourceList>();

  /** `parseResourceList(raw)`. @throws ResourceListError as it does (and remembers nothing then). */
  of(raw: Readonly<Record<string, string>> | undefined): ResourceList {
    if (raw === undefined) return parseResourceList(raw);
    let found = this.#kept.get(raw);
    if (found === undefined) {
      found = parseResourceList(raw);
      this.#kept.set(raw, found);
    }
    return found;
  }
}
