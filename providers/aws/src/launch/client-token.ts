import { createHash } from 'node:crypto';
import type { NodeClaim } from '@nodewright/core/apis';

/** EC2's limit on a ClientToken: 64 ASCII characters. */
export const MaxClientTokenLength = 64;

/**
 * The CreateFleet ClientToken of a NodeClaim's `attempt`-th launch: its uid (unique per claim
 * object, so a claim recreated under the same name launches afresh), or a hash of its name
 * when it has none; later attempts add `-N`. EC2 answers a repeat of a request with the same
 * token and parameters with the first request's result and launches nothing, so a retry after
 * a lost answer gets the first launch back instead of a second instance.
 */
export function launchClientToken(nodeClaim: NodeClaim, attempt: number): string {
  const uid = nodeClaim.metadata.uid;
  const base =
    uid !== undefined && uid !== ''
      ? uid
      : `name-${createHash('sha256')
          .update(nodeClaim.metadata.name ?? '')
          .digest('hex')
          .slice(0, 40)}`;
  const token = attempt === 0 ? base : `${base}-${attempt}`;
  return token.slice(0, MaxClientTokenLength);
}

/**
 * Per NodeClaim, which ClientToken its next CreateFleet carries. The token stays the same
 * while no answer said the launch failed (a lost answer, a 5xx, throttling): a repeat then gets
 * EC2's first result back, the instance it launched included. Once an answer said nothing was
 * launched (a 200 with only errors, a 4xx), the next launch takes a new token, or EC2 would
 * replay that failure. Held in memory for at most `capacity` claims (the oldest forgotten
 * first); after a restart a claim starts at token 0 again, and Instances.forNodeClaim adopts
 * what an earlier process launched for it.
 */
export class LaunchAttempts {
  readonly #byClaim = new Map<string, number>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** The attempt number the claim's next CreateFleet carries in its token. */
  next(key: string): number {
    return this.#byClaim.get(key) ?? 0;
  }

  /** An answer came back and launched nothing: the next launch takes a new token. */
  refused(key: string, attempt: number): void {
    this.#byClaim.delete(key);
    this.#byClaim.set(key, attempt + 1);
    if (this.#byClaim.size > this.#capacity) {
      const oldest = this.#byClaim.keys().next().value;
      if (oldest !== undefined) this.#byClaim.delete(oldest);
    }
  }

  /** The claim has its instance: nothing more to remember. */
  launched(key: string): void {
    this.#byClaim.delete(key);
  }
}
