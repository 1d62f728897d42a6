import { type Bounds, boundsEmpty, makeBounds, withinBounds } from './bounds.js';
import { normalizeLabelKey } from './label-keys.js';
import {
  INT64_MAX,
  INT64_MIN,
  type NodeSelectorRequirement,
  type NodeSelectorRequirementInput,
  nodeSelectorRequirementProblem,
  RequirementError,
  type RequirementOperator,
} from './node-selector.js';

const NO_BOUNDS = makeBounds(undefined, undefined);
const EMPTY: ReadonlySet<string> = new Set();
const SHOWN_VALUES = 5;

function maxBig(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a > b ? a : b;
}

function minBig(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

function maxOpt(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a > b ? a : b;
}

function showValues(values: Iterable<string>): string {
  const sorted = [...values].sort();
  if (sorted.length <= SHOWN_VALUES) return `[${sorted.join(', ')}]`;
  return `[${sorted.slice(0, SHOWN_VALUES).join(', ')} and ${sorted.length - SHOWN_VALUES} others]`;
}

/**
 * The constraint on one label key, as an exact set: the label values it admits, and whether a node
 * without the label satisfies it. Internally either a finite value set, or the complement of one
 * further limited to integers within inclusive bounds; plus Karpenter's optional minValues.
 *
 * This follows Kubernetes' node selector semantics where Karpenter's Requirement approximates them:
 * NotIn and DoesNotExist admit a node without the label, In, Exists and the bounded operators do
 * not, and intersecting keeps that distinction (Exists ∩ NotIn [a] still needs the label; In [a] ∩
 * In [b] matches nothing rather than turning into DoesNotExist). Immutable.
 */
export class Requirement {
  /** The label key, with beta aliases normalised. */
  readonly key: string;
  /** True when {@link values} lists excluded values rather than the admitted ones. */
  readonly complement: boolean;
  /** Admitted values (complement false) or excluded values (complement true). */
  readonly values: ReadonlySet<string>;
  /** Inclusive lower integer bound; only set on complement requirements. */
  readonly gte: bigint | undefined;
  /** Inclusive upper integer bound; only set on complement requirements. */
  readonly lte: bigint | undefined;
  /** Karpenter's minValues: at least this many distinct values must stay possible. */
  readonly minValues: number | undefined;
  readonly #absent: boolean;
  readonly #list: readonly string[];
  readonly #bounds: Bounds;

  private constructor(
    key: string,
    complement: boolean,
    values: ReadonlySet<string>,
    bounds: Bounds,
    absent: boolean,
    minValues: number | undefined,
  ) {
    this.key = key;
    this.complement = complement;
    this.values = values;
    this.gte = bounds.gte;
    this.lte = bounds.lte;
    this.#bounds = bounds;
    this.#absent = absent;
    this.minValues = minValues;
    this.#list = values.size === 0 ? [] : [...values];
  }

  /**
   * The requirement a node selector term states. Gt n and Lt n become the inclusive bounds n+1 and
   * n-1 (so Gt 9223372036854775807 matches nothing).
   *
   * @throws RequirementError when the operator is unknown or its values do not fit it.
   */
  static create(
    key: string,
    operator: RequirementOperator | string,
    values: readonly string[] = [],
    minValues?: number,
  ): Requirement {
    const problem = nodeSelectorRequirementProblem({ key, operator, values, minValues });
    if (problem !== undefined) throw new RequirementError(key, problem);
    const k = normalizeLabelKey(key);
    switch (operator as RequirementOperator) {
      case 'In':
        return new Requirement(k, false, new Set(values), NO_BOUNDS, false, minValues);
      case 'NotIn':
        return new Requirement(k, true, new Set(values), NO_BOUNDS, true, minValues);
      case 'Exists':
        return new Requirement(k, true, EMPTY, NO_BOUNDS, false, minValues);
      case 'DoesNotExist':
        return new Requirement(k, false, EMPTY, NO_BOUNDS, true, minValues);
      default: {
        const n = BigInt(values[0]!);
        const gte = operator === 'Gt' ? n + 1n : operator === 'Gte' ? n : undefined;
        const lte = operator === 'Lt' ? n - 1n : operator === 'Lte' ? n : undefined;
        return Requirement.#bounded(k, EMPTY, gte, lte, minValues);
      }
    }
  }

  /** {@link create} from a NodeSelectorRequirement object (null fields read as absent). */
  static fromNodeSelectorRequirement(r: NodeSelectorRequirementInput): Requirement {
    return Requirement.create(r.key, r.operator, r.values ?? [], r.minValues ?? undefined);
  }

  /** A complement requirement limited to integers, or the empty one when no int64 is left. */
  static #bounded(
    key: string,
    excluded: ReadonlySet<string>,
    gte: bigint | undefined,
    lte: bigint | undefined,
    minValues: number | undefined,
  ): Requirement {
    if (boundsEmpty(gte, lte)) return new Requirement(key, false, EMPTY, NO_BOUNDS, false, minValues);
    return new Requirement(key, true, excluded, makeBounds(gte, lte), false, minValues);
  }

  /** Whether a node whose label has this value satisfies the requirement. */
  has(value: string): boolean {
    if (!this.complement) return this.values.has(value);
    if (this.values.has(value)) return false;
    return (this.gte === undefined && this.lte === undefined) || withinBounds(value, this.#bounds);
  }

  /** Whether a node without the label satisfies the requirement (NotIn, DoesNotExist). */
  admitsAbsence(): boolean {
    return this.#absent;
  }

  /** Whether some label value satisfies the requirement. */
  admitsSomeValue(): boolean {
    return this.complement || this.values.size > 0;
  }

  /** True when nothing satisfies it: no value, and not the label's absence either. */
  isUnsatisfiable(): boolean {
    return !this.complement && !this.#absent && this.values.size === 0;
  }

  /** Number of admitted values: Infinity for complement sets (label values are unbounded strings). */
  len(): number {
    return this.complement ? Number.POSITIVE_INFINITY : this.values.size;
  }

  /** The admitted (or, for complements, excluded) values, sorted. */
  sortedValues(): string[] {
    return [...this.values].sort();
  }

  /**
   * A value that satisfies the requirement, chosen deterministically: the smallest admitted value,
   * or for complement sets the smallest non-excluded integer from max(gte, 0) (or from lte when
   * lte is negative). Undefined when no value satisfies it.
   */
  any(): string | undefined {
    if (!this.complement) {
      let best: string | undefined;
      for (const v of this.#list) if (best === undefined || v < best) best = v;
      return best;
    }
    // Nothing at or above zero is admitted when the only bound is a negative lte: walk down.
    const down = this.gte === undefined && this.lte !== undefined && this.lte < 0n;
    let candidate = down ? this.lte! : (this.gte ?? 0n);
    const step = down ? -1n : 1n;
    const first = candidate;
    // Pigeonhole: among size+1 distinct candidates at least one is not excluded.
    for (let i = 0; i <= this.values.size; i++, candidate += step) {
      if ((this.lte !== undefined && candidate > this.lte) || candidate > INT64_MAX || candidate < INT64_MIN)
        break;
      const s = candidate.toString();
      if (!this.values.has(s)) return s;
    }
    // The range ran out (e.g. Gte 9223372036854775807 NotIn [9223372036854775807]); the same
    // integer spelled with leading zeros is a different label value that still qualifies.
    const sign = first < 0n ? '-' : '';
    const digits = (first < 0n ? -first : first).toString();
    for (let zeros = 1; zeros <= this.values.size + 1; zeros++) {
      const s = `${sign}${'0'.repeat(zeros)}${digits}`;
      if (!this.values.has(s)) return s;
    }
    return undefined;
  }

  /**
   * The nearest single operator, as Karpenter reports it: In, NotIn (complement with exclusions),
   * Exists (complement without; bounded requirements are "Exists with bounds") or DoesNotExist.
   * An unsatisfiable requirement reports In (with no values).
   */
  operator(): 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' {
    if (this.complement) return this.values.size > 0 ? 'NotIn' : 'Exists';
    return this.values.size === 0 && this.#absent ? 'DoesNotExist' : 'In';
  }

  /** The intersection: values both admit, absence only if both admit it; minValues is the larger. */
  intersection(other: Requirement): Requirement {
    if (other === this) return this;
    const minValues = maxOpt(this.minValues, other.minValues);
    const absent = this.#absent && other.#absent;
    if (this.complement && other.complement) {
      const gte = maxBig(this.gte, other.gte);
      const lte = minBig(this.lte, other.lte);
      const union = new Set(this.values);
      for (const v of other.#list) union.add(v);
      if (gte === undefined && lte === undefined) {
        return new Requirement(this.key, true, union, NO_BOUNDS, absent, minValues);
      }
      if (boundsEmpty(gte, lte)) return new Requirement(this.key, false, EMPTY, NO_BOUNDS, absent, minValues);
      const bounds = makeBounds(gte, lte);
      // Exclusions outside the bounds are already excluded by them.
      for (const v of union) if (!withinBounds(v, bounds)) union.delete(v);
      return new Requirement(this.key, true, union, bounds, absent, minValues);
    }
    const kept = new Set<string>();
    let source: Requirement;
    if (!this.complement && !other.complement) {
      source = this.values.size <= other.values.size ? this : other;
      const large = source === this ? other : this;
      for (const v of source.#list) if (large.values.has(v)) kept.add(v);
    } else {
      source = this.complement ? other : this;
      const comp = source === this ? other : this;
      for (const v of source.#list) if (comp.has(v)) kept.add(v);
    }
    // The common solver case (In [b] ∩ In [a, b, c]) gives back one operand unchanged: reuse it.
    if (kept.size === source.values.size && source.#absent === absent && source.minValues === minValues) {
      return source.key === this.key
        ? source
        : new Requirement(this.key, false, source.values, NO_BOUNDS, absent, minValues);
    }
    return new Requirement(this.key, false, kept, NO_BOUNDS, absent, minValues);
  }

  /**
   * Whether something satisfies both: a shared value, or absence when both admit it. Equivalent
   * to `!a.intersection(b).isUnsatisfiable()` without building anything.
   */
  intersects(other: Requirement): boolean {
    if (this.#absent && other.#absent) return true;
    if (this.complement) {
      if (other.complement) return !boundsEmpty(maxBig(this.gte, other.gte), minBig(this.lte, other.lte));
      const list = other.#list;
      for (let i = 0; i < list.length; i++) if (this.has(list[i]!)) return true;
      return false;
    }
    if (other.complement) {
      const list = this.#list;
      for (let i = 0; i < list.length; i++) if (other.has(list[i]!)) return true;
      return false;
    }
    const swap = this.values.size > other.values.size;
    const list = swap ? other.#list : this.#list;
    const large = swap ? this.values : other.values;
    for (let i = 0; i < list.length; i++) if (large.has(list[i]!)) return true;
    return false;
  }

  /**
   * Node selector requirements that state exactly this constraint: usually one; a complement that
   * needs the label and excludes values without bounds is Exists plus NotIn; both bounds give Gte
   * plus Lte (and NotIn when values are excluded). An unsatisfiable requirement is `In []`.
   */
  toNodeSelectorRequirements(): NodeSelectorRequirement[] {
    const mv = this.minValues === undefined ? {} : { minValues: this.minValues };
    const key = this.key;
    if (!this.complement) {
      if (this.values.size === 0 && this.#absent) return [{ key, operator: 'DoesNotExist', ...mv }];
      return [{ key, operator: 'In', values: this.sortedValues(), ...mv }];
    }
    if (this.#absent) return [{ key, operator: 'NotIn', values: this.sortedValues(), ...mv }];
    const out: NodeSelectorRequirement[] = [];
    if (this.gte !== undefined) out.push({ key, operator: 'Gte', values: [this.gte.toString()], ...mv });
    if (this.lte !== undefined) out.push({ key, operator: 'Lte', values: [this.lte.toString()], ...mv });
    if (out.length === 0) out.push({ key, operator: 'Exists', ...mv });
    if (this.values.size > 0) out.push({ key, operator: 'NotIn', values: this.sortedValues(), ...mv });
    return out;
  }

  /**
   * One node selector requirement, as Karpenter's NodeSelectorRequirement(): exact unless
   * {@link toNodeSelectorRequirements} needs several, in which case it is the first of them
   * (a bound, or Exists), which admits a superset.
   */
  toNodeSelectorRequirement(): NodeSelectorRequirement {
    return this.toNodeSelectorRequirements()[0]!;
  }

  /** The constraint without the key, e.g. `In [zone-a, zone-b]`, `Gte 4 and NotIn [7]`. */
  describe(): string {
    let s: string;
    if (!this.complement) {
      s = this.values.size === 0 && this.#absent ? 'DoesNotExist' : `In ${showValues(this.#list)}`;
    } else if (this.#absent) {
      s = `NotIn ${showValues(this.#list)}`;
    } else {
      const parts: string[] = [];
      if (this.gte !== undefined) parts.push(`Gte ${this.gte}`);
      if (this.lte !== undefined) parts.push(`Lte ${this.lte}`);
      if (parts.length === 0) parts.push('Exists');
      if (this.values.size > 0) parts.push(`NotIn ${showValues(this.#list)}`);
      s = parts.join(' and ');
    }
    return this.minValues === undefined ? s : `${s} (minValues ${this.minValues})`;
  }

  /** e.g. `topology.kubernetes.io/zone In [zone-a]`. */
  toString(): string {
    return `${this.key} ${this.describe()}`;
  }

  /** Same key, same admitted values, same absence and same minValues. */
  equals(other: Requirement): boolean {
    if (this === other) return true;
    if (
      this.key !== other.key ||
      this.complement !== other.complement ||
      this.#absent !== other.#absent ||
      this.gte !== other.gte ||
      this.lte !== other.lte ||
      this.minValues !== other.minValues ||
      this.values.size !== other.values.size
    ) {
      return false;
    }
    for (const v of this.#list) if (!other.values.has(v)) return false;
    return true;
  }
}
