import { WellKnownLabels } from '../../apis/labels.js';
import { RequirementConflict } from './conflict.js';
import type { NodeSelectorRequirement, NodeSelectorRequirementInput } from './node-selector.js';
import { Requirement } from './requirement.js';

/** Options for {@link Requirements.isCompatible} and friends. */
export interface CompatibilityOptions {
  /**
   * Keys the incoming side may require even though the existing side does not define them,
   * because something else (the instance type, the provider) will.
   */
  readonly allowUndefined?: ReadonlySet<string>;
}

/** Karpenter's AllowUndefinedWellKnownLabels: zone, instance type, arch, ... may be undefined. */
export const AllowUndefinedWellKnownLabels: CompatibilityOptions = { allowUndefined: WellKnownLabels };

function suffixOf(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? key : key.slice(i + 1);
}

/**
 * Label key -> {@link Requirement}: the constraints a pod, NodePool, NodeClaim or instance type
 * places on node labels. Adding a requirement for a key already present intersects the two.
 * Mutable (add, addAll) so the solver can narrow a copy in place; iteration follows insertion order.
 */
export class Requirements implements Iterable<Requirement> {
  #list: Requirement[] = [];
  #index = new Map<string, number>();

  constructor(requirements: Iterable<Requirement> = []) {
    for (const r of requirements) this.add(r);
  }

  /**
   * From node selector requirements (NodePool / NodeClaim requirements, a node affinity term).
   * @throws RequirementError for an entry the algebra cannot interpret.
   */
  static fromNodeSelectorRequirements(
    requirements: readonly NodeSelectorRequirementInput[] | null | undefined,
  ): Requirements {
    const out = new Requirements();
    for (const r of requirements ?? []) out.add(Requirement.fromNodeSelectorRequirement(r));
    return out;
  }

  /** From a label map or a pod's nodeSelector: each key In its one value. */
  static fromLabels(
    labels: Readonly<Record<string, string>> | ReadonlyMap<string, string> | null | undefined,
  ): Requirements {
    const out = new Requirements();
    if (labels === null || labels === undefined) return out;
    const entries = labels instanceof Map ? labels.entries() : Object.entries(labels);
    for (const [key, value] of entries) out.add(Requirement.create(key, 'In', [value]));
    return out;
  }

  get size(): number {
    return this.#list.length;
  }

  /** Adds each requirement, intersecting it with any already held for its key. */
  add(...requirements: Requirement[]): this {
    for (const r of requirements) {
      const i = this.#index.get(r.key);
      if (i === undefined) {
        this.#index.set(r.key, this.#list.length);
        this.#list.push(r);
      } else {
        this.#list[i] = this.#list[i]!.intersection(r);
      }
    }
    return this;
  }

  /** Adds every requirement of another set. */
  addAll(other: Requirements): this {
    for (const r of other.#list) this.add(r);
    return this;
  }

  copy(): Requirements {
    const out = new Requirements();
    out.#list = this.#list.slice();
    out.#index = new Map(this.#index);
    return out;
  }

  /** A new set holding the intersection of both. */
  intersection(other: Requirements): Requirements {
    return this.copy().addAll(other);
  }

  /** The requirement for a key (already normalised: callers pass stable label names), if any. */
  get(key: string): Requirement | undefined {
    const i = this.#index.get(key);
    return i === undefined ? undefined : this.#list[i];
  }

  has(key: string): boolean {
    return this.#index.has(key);
  }

  keys(): string[] {
    return this.#list.map((r) => r.key);
  }

  /** The requirements in insertion order (a live read-only view; do not hold across add). */
  list(): readonly Requirement[] {
    return this.#list;
  }

  [Symbol.iterator](): Iterator<Requirement> {
    return this.#list[Symbol.iterator]();
  }

  /**
   * Whether, for every key both define, something satisfies both (Karpenter's Intersects, with
   * absence counted as in Kubernetes: two requirements that both admit a missing label agree).
   * Keys only one side defines are not checked. Allocation-free.
   */
  intersects(other: Requirements): boolean {
    const swap = this.#list.length > other.#list.length;
    const large = swap ? this : other;
    const list = swap ? other.#list : this.#list;
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      const j = large.#index.get(a.key);
      if (j !== undefined && !a.intersects(large.#list[j]!)) return false;
    }
    return true;
  }

  /** The first key on which {@link intersects} fails, explained; undefined when they intersect. */
  intersectionConflict(other: Requirements): RequirementConflict | undefined {
    for (const incoming of other.#list) {
      const existing = this.get(incoming.key);
      if (existing !== undefined && !existing.intersects(incoming))
        return RequirementConflict.disjoint(existing, incoming);
    }
    return undefined;
  }

  /**
   * Karpenter's Compatible, read as "can a node meeting these (existing) requirements also meet
   * `incoming`": every key both define must intersect, and every key only `incoming` defines
   * must admit a node without the label (NotIn, DoesNotExist) unless it is in `allowUndefined`.
   * Allocation-free.
   */
  isCompatible(incoming: Requirements, options?: CompatibilityOptions): boolean {
    const allow = options?.allowUndefined;
    const list = incoming.#list;
    for (let i = 0; i < list.length; i++) {
      const inc = list[i]!;
      const j = this.#index.get(inc.key);
      if (j === undefined) {
        if (!inc.admitsAbsence() && (allow === undefined || !allow.has(inc.key))) return false;
      } else if (!this.#list[j]!.intersects(inc)) {
        return false;
      }
    }
    return true;
  }

  /** The first reason {@link isCompatible} is false, explained; undefined when compatible. */
  compatibilityConflict(
    incoming: Requirements,
    options?: CompatibilityOptions,
  ): RequirementConflict | undefined {
    for (const inc of incoming.#list) {
      const conflict = this.#conflictFor(inc, options?.allowUndefined);
      if (conflict !== undefined) return conflict;
    }
    return undefined;
  }

  /** Every reason {@link isCompatible} is false, one per key, in `incoming`'s order. */
  conflicts(incoming: Requirements, options?: CompatibilityOptions): RequirementConflict[] {
    const out: RequirementConflict[] = [];
    for (const inc of incoming.#list) {
      const conflict = this.#conflictFor(inc, options?.allowUndefined);
      if (conflict !== undefined) out.push(conflict);
    }
    return out;
  }

  /** Keys whose requirement admits exactly one value, with that value (the labels a node gets). */
  labels(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.#list) {
      if (!r.complement && r.values.size === 1) out[r.key] = r.values.values().next().value!;
    }
    return out;
  }

  /** Node selector requirements stating exactly these constraints (see Requirement). */
  toNodeSelectorRequirements(): NodeSelectorRequirement[] {
    return this.#list.flatMap((r) => r.toNodeSelectorRequirements());
  }

  hasMinValues(): boolean {
    return this.#list.some((r) => r.minValues !== undefined);
  }

  /** Sorted requirement strings joined by ", ". */
  toString(): string {
    return this.#list
      .map((r) => r.toString())
      .sort()
      .join(', ');
  }

  #conflictFor(inc: Requirement, allow: ReadonlySet<string> | undefined): RequirementConflict | undefined {
    const existing = this.get(inc.key);
    if (existing === undefined) {
      if (inc.admitsAbsence() || allow?.has(inc.key)) return undefined;
      return RequirementConflict.undefinedKey(inc, () => this.#typoHint(inc.key, allow));
    }
    return existing.intersects(inc) ? undefined : RequirementConflict.disjoint(existing, inc);
  }

  /** Karpenter's labelHint: a well-known or existing key containing this one, or sharing its name. */
  #typoHint(key: string, allow: ReadonlySet<string> | undefined): string {
    const suffix = suffixOf(key);
    const candidates = [...(allow ?? []), ...this.keys()];
    for (const candidate of candidates) {
      if (candidate.includes(key) || candidate.endsWith(suffix))
        return ` (typo of ${JSON.stringify(candidate)}?)`;
    }
    return '';
  }
}
