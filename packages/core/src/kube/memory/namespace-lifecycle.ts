import { isNotFound } from '../errors.js';
import { cloneJson } from '../json.js';
import { typeKey } from '../resource-type.js';
import { Namespaces } from '../resource-types.js';
import type { ClusterInternals } from './internals.js';
import { CONTROLLER_MANAGER } from './internals.js';
import type { Change } from './object-store.js';
import type { WorkTracker } from './work-tracker.js';

/** The `spec.finalizers` entry the namespace controller owns. */
export const NAMESPACE_FINALIZER = 'kubernetes';

const NAMESPACE_KEY = typeKey(Namespaces);

/**
 * The namespace controller: once a namespace is Terminating, delete everything in it (through
 * the normal delete path, so finalizers hold objects), and when nothing is left remove the
 * `kubernetes` spec finalizer, which lets the namespace itself go.
 */
export class NamespaceLifecycle {
  readonly #cluster: ClusterInternals;
  readonly #tracker: WorkTracker;
  readonly #pending = new Set<string>();
  #scheduled = false;

  constructor(cluster: ClusterInternals, tracker: WorkTracker) {
    this.#cluster = cluster;
    this.#tracker = tracker;
  }

  observe(change: Change): void {
    const obj = change.object;
    if (change.typeKey === NAMESPACE_KEY) {
      if (change.op !== 'delete' && obj.metadata.deletionTimestamp !== undefined)
        this.#enqueue(obj.metadata.name ?? '');
      return;
    }
    const namespace = obj.metadata.namespace;
    if (namespace === undefined || change.op !== 'delete') return;
    const ns = this.#cluster.store.get(NAMESPACE_KEY, namespace);
    if (ns?.metadata.deletionTimestamp !== undefined) this.#enqueue(namespace);
  }

  #enqueue(namespace: string): void {
    this.#pending.add(namespace);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#tracker.schedule(() => {
      this.#scheduled = false;
      const names = [...this.#pending];
      this.#pending.clear();
      for (const name of names) {
        try {
          this.#process(name);
        } catch (err) {
          if (!isNotFound(err)) this.#tracker.fail(err);
        }
      }
    });
  }

  #process(name: string): void {
    const ns = this.#cluster.store.get(NAMESPACE_KEY, name);
    if (ns === undefined || ns.metadata.deletionTimestamp === undefined) return;
    for (const policy of this.#cluster.kinds.all()) {
      if (!policy.type.namespaced) continue;
      for (const obj of this.#cluster.store.all(typeKey(policy.type))) {
        if (obj.metadata.namespace !== name || obj.metadata.deletionTimestamp !== undefined) continue;
        this.#cluster.delete(policy.type, { name: obj.metadata.name as string, namespace: name });
      }
    }
    const remaining = this.#cluster.kinds
      .all()
      .filter((p) => p.type.namespaced)
      .some((p) => this.#cluster.store.all(typeKey(p.type)).some((o) => o.metadata.namespace === name));
    if (remaining) return;
    const current = this.#cluster.store.get(NAMESPACE_KEY, name);
    if (current === undefined) return;
    const next = cloneJson(current) as typeof current & { spec?: { finalizers?: string[] } };
    const finalizers = next.spec?.finalizers ?? [];
    if (!finalizers.includes(NAMESPACE_FINALIZER)) return;
    next.spec = { ...next.spec, finalizers: finalizers.filter((f) => f !== NAMESPACE_FINALIZER) };
    this.#cluster.update(Namespaces, next, { fieldManager: CONTROLLER_MANAGER });
  }
}
