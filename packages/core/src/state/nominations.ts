import type { Pod } from '../apis/kubernetes/pod.js';
import { podId } from './pod-role.js';
import type { CapacityRef } from './snapshot.js';

/**
 * How long a nomination lasts unless the pod binds first (or its owner holds it; see
 * Nominations). Karpenter nominates for twice the 10 s batch maximum.
 */
export const DefaultNominationWindowMs = 20_000;

interface PodNomination {
  readonly target: CapacityRef;
  readonly uid: string | undefined;
  readonly until: number;
}

/**
 * Whether a pod's nomination to this target stays on past its window. The owner answers it
 * from what it knows of the target now (see ClusterState: a claim still on its way).
 */
export type NominationHold = (target: CapacityRef) => boolean;

/**
 * Which pending pods the provisioner has already placed, and on what. A nominated pod is
 * counted on its target instead of being placed again, until it binds, its target goes away or
 * the window passes — whichever comes first, except that the window does not end a nomination
 * while `holds` says its target still holds it. Targets (nodes and claims) stay nominated for
 * the window even after their pods bind, so disruption leaves capacity alone that was just
 * chosen. Times are passed in (ms since the epoch), so the owner's clock decides.
 */
export class Nominations {
  readonly #windowMs: number;
  readonly #holds: NominationHold;
  readonly #pods = new Map<string, PodNomination>();
  readonly #targets = new Map<string, number>();

  constructor(windowMs: number = DefaultNominationWindowMs, holds: NominationHold = () => false) {
    this.#windowMs = windowMs;
    this.#holds = holds;
  }

  /** Whether the nomination is on at `now`: within its window, or held by its target. */
  #on(n: PodNomination, now: number): boolean {
    return n.until > now || this.#holds(n.target);
  }

  /** Nominates the pod to `target` from `now` for the window (replacing an earlier nomination). */
  nominate(pod: Pick<Pod, 'metadata'>, target: CapacityRef, now: number): void {
    const until = now + this.#windowMs;
    this.#pods.set(podId(pod), { target, uid: pod.metadata.uid, until });
    for (const name of targetNames(target)) this.#targets.set(name, until);
  }

  /**
   * Where the pod is nominated, if the nomination is still on at `now`; a different pod under
   * the same name (another uid) is not nominated.
   */
  targetOf(pod: Pick<Pod, 'metadata'>, now: number): CapacityRef | undefined {
    const n = this.#pods.get(podId(pod));
    if (n === undefined || !this.#on(n, now)) return undefined;
    if (n.uid !== undefined && pod.metadata.uid !== undefined && n.uid !== pod.metadata.uid) return undefined;
    return n.target;
  }

  /** Ends the pod's nomination (it bound, finished or went away). */
  release(pod: Pick<Pod, 'metadata'>): void {
    this.#pods.delete(podId(pod));
  }

  /**
   * Opens the window again from `now` for every pod nominated to a node or claim of this name:
   * its owner stopped holding them (the claim came up), and kube-scheduler needs a moment to
   * bind them there.
   */
  renewTarget(name: string, now: number): void {
    const until = now + this.#windowMs;
    for (const [key, n] of this.#pods) {
      if (namesTarget(n.target, name) && n.until < until) this.#pods.set(key, { ...n, until });
    }
  }

  /** Ends every nomination to a node or claim of this name (it is gone or going). */
  releaseTarget(name: string): void {
    this.#targets.delete(name);
    for (const [key, n] of this.#pods) {
      if (namesTarget(n.target, name)) this.#pods.delete(key);
    }
  }

  /** Whether pods were nominated to this node or claim within the window before `now`. */
  isTargetNominated(name: string, now: number): boolean {
    const until = this.#targets.get(name);
    return until !== undefined && until > now;
  }

  /**
   * When the earliest pod nomination window still open at `now` closes, if any. A held
   * nomination outlives its window; what ends it is a change to its target, not a time.
   */
  nextExpiry(now: number): number | undefined {
    let next: number | undefined;
    for (const n of this.#pods.values()) {
      if (n.until > now && (next === undefined || n.until < next)) next = n.until;
    }
    return next;
  }

  /** Forgets what ended before `now`, so the maps do not grow. */
  prune(now: number): void {
    for (const [key, n] of this.#pods) if (!this.#on(n, now)) this.#pods.delete(key);
    for (const [name, until] of this.#targets) if (until <= now) this.#targets.delete(name);
  }

  /** Pod nominations still on at `now`. */
  count(now: number): number {
    let n = 0;
    for (const p of this.#pods.values()) if (this.#on(p, now)) n++;
    return n;
  }
}

function targetNames(ref: CapacityRef): string[] {
  const out: string[] = [];
  if (ref.nodeClaim !== undefined) out.push(ref.nodeClaim);
  if (ref.node !== undefined && ref.node !== ref.nodeClaim) out.push(ref.node);
  return out;
}

/** Whether the node or claim of this name is the target. */
function namesTarget(ref: CapacityRef, name: string): boolean {
  return ref.node === name || ref.nodeClaim === name;
}
