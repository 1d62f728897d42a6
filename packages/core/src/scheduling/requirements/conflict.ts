import type { Requirement } from './requirement.js';

/**
 * Why two sets of requirements are not compatible, for one key. `disjoint`: both constrain the
 * key and nothing satisfies both. `undefined`: the incoming side needs a label the existing side
 * will not have. The message is built only when read, so the solver can carry conflicts cheaply.
 */
export class RequirementConflict {
  readonly key: string;
  readonly kind: 'disjoint' | 'undefined';
  /** The existing side's requirement; undefined for kind `undefined`. */
  readonly existing: Requirement | undefined;
  readonly incoming: Requirement;
  readonly #hint: (() => string) | undefined;
  #message: string | undefined;

  private constructor(
    key: string,
    kind: 'disjoint' | 'undefined',
    existing: Requirement | undefined,
    incoming: Requirement,
    hint: (() => string) | undefined,
  ) {
    this.key = key;
    this.kind = kind;
    this.existing = existing;
    this.incoming = incoming;
    this.#hint = hint;
  }

  static disjoint(existing: Requirement, incoming: Requirement): RequirementConflict {
    return new RequirementConflict(existing.key, 'disjoint', existing, incoming, undefined);
  }

  /** `hint` is called lazily for a " (typo of ...?)" suffix, or "" for none. */
  static undefinedKey(incoming: Requirement, hint?: () => string): RequirementConflict {
    return new RequirementConflict(incoming.key, 'undefined', undefined, incoming, hint);
  }

  /**
   * e.g. `key topology.kubernetes.io/zone: In [zone-b] does not intersect In [zone-a]` (incoming
   * first), or `label "zone" does not have known values (typo of "topology.kubernetes.io/zone"?)`.
   */
  get message(): string {
    if (this.#message === undefined) {
      this.#message =
        this.kind === 'disjoint'
          ? `key ${this.key}: ${this.incoming.describe()} does not intersect ${this.existing!.describe()}`
          : `label ${JSON.stringify(this.key)} does not have known values${this.#hint?.() ?? ''}`;
    }
    return this.#message;
  }

  toString(): string {
    return this.message;
  }
}
