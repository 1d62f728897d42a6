import type { Pod } from '../../../apis/kubernetes/pod.js';
import { type PodInfo, podInfoOf } from './pod-info.js';

/** A pod's PodInfo, or why it has none, and the key under which pods fail alike. */
export type DerivedPod =
  | { readonly info: PodInfo; readonly signature: string; readonly createdMs: number }
  | { readonly error: Error; readonly createdMs: number };

function creationMs(pod: Pod): number {
  const t = pod.metadata.creationTimestamp;
  const ms = t === undefined ? Number.NaN : Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * What the binder derives from a pod (its PodInfo, its scheduling signature, its creation time),
 * computed once per pod object. The informer cache hands out the same frozen object until the
 * pod changes, and a pending pod is attempted again after every Node change: at a thousand
 * nodes coming up under thousands of pending pods, re-parsing every pod's quantities and
 * re-serialising its spec on each attempt was over a third of a simulation.
 *
 * The signature (namespace, labels, spec) is shared by a template's replicas, so it is kept per
 * labels and per spec object as well: a status write gives the pod a new object but leaves
 * those two as they were.
 */
export class PodInfoCache {
  readonly #byPod = new WeakMap<Pod, DerivedPod>();
  readonly #json = new WeakMap<object, string>();

  of(pod: Pod): DerivedPod {
    const known = this.#byPod.get(pod);
    if (known !== undefined) return known;
    const createdMs = creationMs(pod);
    let derived: DerivedPod;
    try {
      const info = podInfoOf(pod);
      derived = {
        info,
        signature: `${info.namespace}\u0000${this.#stringify(pod.metadata.labels)}\u0000${this.#stringify(pod.spec)}`,
        createdMs,
      };
    } catch (err) {
      derived = { error: err as Error, createdMs };
    }
    this.#byPod.set(pod, derived);
    return derived;
  }

  #stringify(value: object | undefined): string {
    if (value === undefined) return '{}';
    let json = this.#json.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      this.#json.set(value, json);
    }
    return json;
  }
}
