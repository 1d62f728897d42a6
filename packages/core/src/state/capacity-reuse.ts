import type { ExistingCapacity } from '../scheduling/solver/types.js';

/**
 * Hands back the previous snapshot's ExistingCapacity object for a node or claim whose parts are
 * all the same as then: the same Node and NodeClaim objects, the same pods in the same order,
 * and the same initialization and deletion mark. What the solver prepares from a piece of
 * capacity is cached by the piece's identity (SolverCache); a snapshot builds every piece anew,
 * so without this each disruption pass and each provisioning solve prepared all of them again,
 * though between two passes only a few nodes change. Objects are never changed in place, so a
 * piece whose parts are the same objects means the same thing.
 */
export class CapacityReuse {
  #last = new Map<string, ExistingCapacity>();

  /** `existing`, each piece replaced by the last call's equal one where there is one. */
  reuse(existing: readonly ExistingCapacity[]): ExistingCapacity[] {
    const next = new Map<string, ExistingCapacity>();
    const out = existing.map((piece) => {
      const last = this.#last.get(piece.name);
      const kept = last !== undefined && sameCapacity(last, piece) ? last : piece;
      next.set(piece.name, kept);
      return kept;
    });
    this.#last = next;
    return out;
  }
}

function sameCapacity(a: ExistingCapacity, b: ExistingCapacity): boolean {
  if (
    a.node !== b.node ||
    a.nodeClaim !== b.nodeClaim ||
    a.initialized !== b.initialized ||
    (a.markedForDeletion ?? false) !== (b.markedForDeletion ?? false) ||
    a.pods.length !== b.pods.length
  )
    return false;
  for (let i = 0; i < a.pods.length; i++) if (a.pods[i] !== b.pods[i]) return false;
  return true;
}
