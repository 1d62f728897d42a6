import { WellKnownLabels, withWellKnownLabels } from '../../apis/labels.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { Requirement } from '../requirements/requirement.js';
import {
  AllowUndefinedWellKnownLabels,
  type CompatibilityOptions,
  type Requirements,
} from '../requirements/requirements.js';

/**
 * The well-known labels of one solve: core's plus the provider's or catalog's
 * (`SolverInput.wellKnownLabels`). A pod may require any of them on a NodePool that does not name
 * it, because the instance type will define it; a type that does not define one of the extra keys
 * is read as `DoesNotExist` for it (Karpenter's AWS provider starts every type that way), so an
 * `In` or `Exists` selector on the key picks exactly the types that carry the label.
 */
export class WellKnown {
  readonly keys: ReadonlySet<string>;
  /** For `isCompatible` against a NodePool or NodeClaim: the well-known keys may be undefined. */
  readonly compat: CompatibilityOptions;
  readonly #extra: readonly string[];
  readonly #normalized = new Map<InstanceType, InstanceType>();

  constructor(extra: ReadonlySet<string> | undefined) {
    this.keys = withWellKnownLabels(extra);
    this.compat =
      this.keys === WellKnownLabels ? AllowUndefinedWellKnownLabels : { allowUndefined: this.keys };
    this.#extra = [...this.keys].filter((k) => !WellKnownLabels.has(k));
  }

  /** The type, with `DoesNotExist` added for each extra key it does not define (itself if none). */
  normalize(type: InstanceType): InstanceType {
    if (this.#extra.length === 0) return type;
    let out = this.#normalized.get(type);
    if (out !== undefined) return out;
    let requirements: Requirements | undefined;
    for (const key of this.#extra) {
      if (type.requirements.has(key)) continue;
      requirements ??= type.requirements.copy();
      requirements.add(Requirement.create(key, 'DoesNotExist'));
    }
    out = requirements === undefined ? type : { ...type, requirements };
    this.#normalized.set(type, out);
    return out;
  }
}
