import { Quantity } from '../quantity/quantity.js';
import { defaultFormatFor, parseResourceList, type ResourceList } from '../resources/resource-list.js';

/** The resource name NodePool limits use to count nodes. */
export const NodesResource = 'nodes';

const ONE_NODE = Quantity.fromUnits(1).nanos;

/**
 * What a NodePool may still launch: its limits minus its usage, minus, for every NodeClaim this
 * solve accepted, the largest capacity among that claim's candidate types (Karpenter's
 * subtractMax, so whichever type is launched the limit holds). Exact (nano-units).
 */
export class PoolLimits {
  readonly names: readonly string[];
  readonly limits: readonly bigint[];
  readonly remaining: bigint[];

  private constructor(names: string[], limits: bigint[], remaining: bigint[]) {
    this.names = names;
    this.limits = limits;
    this.remaining = remaining;
  }

  /** Undefined when the NodePool has no limits. */
  static of(
    limits: Readonly<Record<string, string>> | undefined,
    usage: ResourceList | undefined,
  ): PoolLimits | undefined {
    if (limits === undefined) return undefined;
    const parsed = parseResourceList(limits);
    if (parsed.size === 0) return undefined;
    const names = [...parsed.keys()].sort();
    const lim = names.map((n) => parsed.get(n)!.nanos);
    const rem = names.map((n, i) => lim[i]! - (usage?.get(n)?.nanos ?? 0n));
    return new PoolLimits(names, lim, rem);
  }

  /** A type's capacity for each limited resource (undefined: the type does not have it). */
  capacityOf(capacity: ResourceList): (bigint | undefined)[] {
    return this.names.map((n) => (n === NodesResource ? ONE_NODE : capacity.get(n)?.nanos));
  }

  /** Karpenter's filterByRemainingResources: no limited resource of the type exceeds what is left. */
  admits(capacity: readonly (bigint | undefined)[]): boolean {
    for (let i = 0; i < capacity.length; i++) {
      const c = capacity[i];
      if (c !== undefined && c > this.remaining[i]!) return false;
    }
    return true;
  }

  /** The first limited resource the capacity exceeds, as an index, or -1. */
  firstExceeded(capacity: readonly (bigint | undefined)[]): number {
    for (let i = 0; i < capacity.length; i++) {
      const c = capacity[i];
      if (c !== undefined && c > this.remaining[i]!) return i;
    }
    return -1;
  }

  /** Takes the largest capacity among a new claim's candidates off what is left; returns what it took. */
  subtractMax(capacities: readonly (readonly (bigint | undefined)[])[]): bigint[] {
    const taken = PoolLimits.maxOf(this.names.length, capacities);
    for (let i = 0; i < taken.length; i++) this.remaining[i] = this.remaining[i]! - taken[i]!;
    return taken;
  }

  /** Per limited resource, the largest of the capacities (0 when none has it). */
  static maxOf(n: number, capacities: readonly (readonly (bigint | undefined)[])[]): bigint[] {
    const out: bigint[] = [];
    for (let i = 0; i < n; i++) {
      let max = 0n;
      for (const c of capacities) {
        const v = c[i];
        if (v !== undefined && v > max) max = v;
      }
      out.push(max);
    }
    return out;
  }

  /** Gives back what {@link subtractMax} took for claims that are dropped. */
  restore(amounts: readonly bigint[]): void {
    for (let i = 0; i < amounts.length; i++) this.remaining[i] = this.remaining[i]! + amounts[i]!;
  }

  /** e.g. `cpu 1000 (used 998)`: the limit and how much of it is taken, for reasons. */
  describe(i: number): string {
    const name = this.names[i]!;
    const fmt = (nanos: bigint) => Quantity.fromNanos(nanos, defaultFormatFor(name)).toString();
    const used = this.limits[i]! - this.remaining[i]!;
    return `${name} ${fmt(this.limits[i]!)} (used ${fmt(used)})`;
  }
}
