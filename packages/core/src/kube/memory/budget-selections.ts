import type { LabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { PodLike } from '../pod.js';
import type { Change, ObjectStore } from './object-store.js';
import type { PodBudgetFacts } from './pod-budget-facts.js';

/** One controller's share of a selection: a pod it controls (any will do) and how many. */
export interface ControllerShare {
  readonly pod: PodLike;
  readonly count: number;
}

/**
 * The pods one budget selector selects in one namespace, and the counts a budget's status is
 * made of, kept current as pods change.
 */
export interface BudgetSelection {
  /** The selected pods by name, in the order the store lists them. */
  readonly pods: ReadonlyMap<string, PodLike>;
  /** How many selected pods are Ready and not being deleted. */
  readonly readyLive: number;
  /** Per controller key (PodBudgetFacts.controllerKey), its share; pods without one are not here. */
  readonly controllers: ReadonlyMap<string, ControllerShare>;
}

/** Selections kept at once; budgets are few, and one left unused is dropped first. */
const MAX_SELECTIONS = 256;

/**
 * Per (namespace, selector), the selected pods and their counts, updated from the store's change
 * feed instead of recounted from every stored pod on every read. The disruption controller reads
 * a namespace's budgets on each pod change; at a thousand pods, selecting and counting all of
 * them each time was a tenth of a long simulation.
 *
 * The pods stay in the store's order (a new pod is appended, a removed one dropped, an updated
 * one keeps its place), so a reader that needs the order, such as an error naming the first pod,
 * sees what a scan of the store would give. The one change that cannot keep it cheaply, an update
 * that makes a pod selected, marks the selection for a full rebuild at its next read.
 */
export class BudgetSelections {
  readonly #store: ObjectStore;
  readonly #podTypeKey: string;
  readonly #facts: PodBudgetFacts;
  readonly #selections = new Map<string, Selection>();

  constructor(store: ObjectStore, podTypeKey: string, facts: PodBudgetFacts) {
    this.#store = store;
    this.#podTypeKey = podTypeKey;
    this.#facts = facts;
  }

  /** The selection of `selector` (named `key`, its JSON) in `namespace`. */
  of(
    namespace: string | undefined,
    key: string,
    selector: LabelSelector | null | undefined,
  ): BudgetSelection {
    const id = `${namespace ?? ''}\u0000${key}`;
    let selection = this.#selections.get(id);
    if (selection === undefined || selection.stale) {
      selection = new Selection(namespace, key, selector, this.#facts);
      for (const pod of this.#store.all(this.#podTypeKey) as PodLike[]) selection.append(pod);
    }
    // Most recently read last, so the first is the one to drop.
    this.#selections.delete(id);
    this.#selections.set(id, selection);
    if (this.#selections.size > MAX_SELECTIONS) {
      const oldest = this.#selections.keys().next().value;
      if (oldest !== undefined) this.#selections.delete(oldest);
    }
    return selection;
  }

  /** Feeds one store change; the cluster calls this for every write. */
  observe(change: Change): void {
    if (change.typeKey !== this.#podTypeKey) return;
    for (const selection of this.#selections.values()) selection.apply(change);
  }
}

class Selection implements BudgetSelection {
  readonly pods = new Map<string, PodLike>();
  readonly controllers = new Map<string, ControllerShare>();
  readyLive = 0;
  stale = false;
  readonly #namespace: string | undefined;
  readonly #key: string;
  readonly #selector: LabelSelector | null | undefined;
  readonly #facts: PodBudgetFacts;

  constructor(
    namespace: string | undefined,
    key: string,
    selector: LabelSelector | null | undefined,
    facts: PodBudgetFacts,
  ) {
    this.#namespace = namespace;
    this.#key = key;
    this.#selector = selector;
    this.#facts = facts;
  }

  /** Adds a pod at the end when it is of this namespace and selected (a scan in store order). */
  append(pod: PodLike): void {
    if (!this.#selects(pod)) return;
    this.pods.set(pod.metadata.name ?? '', pod);
    this.#count(pod, 1);
  }

  apply(change: Change): void {
    if (this.stale) return;
    const name = change.object.metadata.name ?? '';
    const before = this.pods.get(name);
    const after =
      change.op !== 'delete' && this.#selects(change.object as PodLike)
        ? (change.object as PodLike)
        : undefined;
    if (before === undefined && after === undefined) return;
    if (before !== undefined && (change.object.metadata.namespace ?? '') !== (this.#namespace ?? '')) return;
    if (before !== undefined) this.#count(before, -1);
    if (after === undefined) {
      this.pods.delete(name);
    } else if (before !== undefined || change.op === 'create') {
      // Map.set keeps an existing key's place and appends a new one, as the store does.
      this.pods.set(name, after);
      this.#count(after, 1);
    } else {
      // Selected by an update: its place is the store's, which only a scan knows.
      this.stale = true;
    }
  }

  #selects(pod: PodLike): boolean {
    return pod.metadata.namespace === this.#namespace && this.#facts.selects(this.#key, this.#selector, pod);
  }

  #count(pod: PodLike, sign: 1 | -1): void {
    if (pod.metadata.deletionTimestamp === undefined && this.#facts.ready(pod)) this.readyLive += sign;
    const controller = this.#facts.controllerKey(pod);
    if (controller === undefined) return;
    const share = this.controllers.get(controller);
    const count = (share?.count ?? 0) + sign;
    if (count <= 0) this.controllers.delete(controller);
    else this.controllers.set(controller, { pod: share?.pod ?? pod, count });
  }
}
