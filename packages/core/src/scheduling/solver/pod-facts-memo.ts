import type { Pod } from '../../apis/kubernetes/pod.js';
import { podCreationMillis } from '../pod/identity.js';
import type { VolumeRequirement } from '../volumes/volume-topology.js';
import { podSignature } from './signature.js';

/**
 * A pod's creation time and solver signature per pod object, for solves that see the same pods
 * again: each consolidation simulation of a disruption pass classifies every pending pod anew
 * (13,000 of them, each a JSON string and a date parse, in a 20,000-pod scale-out).
 *
 * The signature is kept only for a pod whose volumes impose nothing: with volume requirements it
 * also depends on the claims, volumes and classes of the solve, which may change while the pod
 * object stays. Keyed by object identity: the contract is that pods are never changed in place
 * (the cluster state and the informer cache replace a pod object on every change).
 */
export class PodFactsMemo {
  readonly #byPod = new WeakMap<Pod, { readonly created: number; signature?: string }>();

  #facts(pod: Pod): { readonly created: number; signature?: string } {
    let found = this.#byPod.get(pod);
    if (found === undefined) {
      found = { created: podCreationMillis(pod) };
      this.#byPod.set(pod, found);
    }
    return found;
  }

  /** `podSignature(pod, volumes)`. */
  signature(pod: Pod, volumes: readonly VolumeRequirement[]): string {
    if (volumes.length > 0) return podSignature(pod, volumes);
    const facts = this.#facts(pod);
    facts.signature ??= podSignature(pod, volumes);
    return facts.signature;
  }

  /** `podCreationMillis(pod)`. */
  created(pod: Pod): number {
    return this.#facts(pod).created;
  }
}
