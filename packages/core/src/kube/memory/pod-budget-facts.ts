import type { LabelSelector } from '../../apis/kubernetes/label-selector.js';
import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import { controllerOf } from '../object.js';
import { isPodReady, type PodLike } from '../pod.js';

/** What budget accounting reads of one stored pod, worked out once per stored version. */
interface Facts {
  readonly ready: boolean;
  /** Namespace and controller reference joined, or undefined for a pod without a controller. */
  readonly controllerKey: string | undefined;
  /** Per selector (by its JSON), whether it selects the pod. */
  readonly selected: Map<string, boolean>;
}

/**
 * Per stored pod object, what a PodDisruptionBudget's status needs of it: readiness, its
 * controller, and which budget selectors select it. Stored objects are frozen and replaced on
 * every change, so an entry holds exactly as long as the pod version it describes. The
 * disruption controller recounts a namespace's budgets on each pod change; at a thousand pods
 * the selector matches and condition scans of the unchanged pods were most of a long
 * simulation's cluster work.
 */
export class PodBudgetFacts {
  readonly #facts = new WeakMap<PodLike, Facts>();

  #of(pod: PodLike): Facts {
    let facts = this.#facts.get(pod);
    if (facts === undefined) {
      const ref = controllerOf(pod);
      facts = {
        ready: isPodReady(pod),
        controllerKey:
          ref === undefined
            ? undefined
            : `${pod.metadata.namespace ?? ''}\u0000${ref.apiVersion}\u0000${ref.kind}\u0000${ref.name}\u0000${ref.uid ?? ''}`,
        selected: new Map(),
      };
      this.#facts.set(pod, facts);
    }
    return facts;
  }

  /** isPodReady. */
  ready(pod: PodLike): boolean {
    return this.#of(pod).ready;
  }

  /** The pod's controller reference with its namespace, as a key; undefined without one. */
  controllerKey(pod: PodLike): string | undefined {
    return this.#of(pod).controllerKey;
  }

  /** matchesLabelSelector(selector, labels); `key` names the selector (its JSON). */
  selects(key: string, selector: LabelSelector | null | undefined, pod: PodLike): boolean {
    const selected = this.#of(pod).selected;
    let yes = selected.get(key);
    if (yes === undefined) {
      yes = matchesLabelSelector(selector, pod.metadata.labels);
      selected.set(key, yes);
    }
    return yes;
  }
}
