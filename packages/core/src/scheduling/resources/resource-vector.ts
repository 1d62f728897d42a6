import { type QuantityFormat, QuantityFormats } from '../quantity/format.js';
import { Quantity } from '../quantity/quantity.js';
import type { ResourceShortfall } from './fits.js';
import { defaultFormatFor, type ResourceList, ResourceNames } from './resource-list.js';

const NANOS_PER_UNIT = 1e9;
const BIG_NANOS_PER_UNIT = 1_000_000_000n;
const MAX_UNITS = Number.MAX_SAFE_INTEGER;
const BIG_MAX_UNITS = BigInt(MAX_UNITS);

/** The slots every vector starts with, in this order. */
const CORE_RESOURCES = [
  ResourceNames.CPU,
  ResourceNames.Memory,
  ResourceNames.Pods,
  ResourceNames.EphemeralStorage,
];

/**
 * Assigns resource names to vector slots for one solve: cpu, memory, pods and ephemeral-storage
 * are slots 0-3, extended resources get the next free slot when first seen. Vectors built before
 * a name was registered simply read that slot as zero.
 */
export class ResourceSlots {
  readonly #names: string[] = [];
  readonly #index = new Map<string, number>();

  constructor(extended: Iterable<string> = []) {
    for (const name of CORE_RESOURCES) this.slot(name);
    for (const name of extended) this.slot(name);
  }

  /** The slot of a name, registering it if new. */
  slot(name: string): number {
    let i = this.#index.get(name);
    if (i === undefined) {
      i = this.#names.length;
      this.#names.push(name);
      this.#index.set(name, i);
    }
    return i;
  }

  /** The slot of a registered name, or -1. */
  indexOf(name: string): number {
    return this.#index.get(name) ?? -1;
  }

  nameOf(slot: number): string {
    const name = this.#names[slot];
    if (name === undefined) throw new RangeError(`no resource in slot ${slot}`);
    return name;
  }

  get size(): number {
    return this.#names.length;
  }

  names(): readonly string[] {
    return this.#names;
  }
}

/**
 * A dense, mutable resource vector for the solver's hot loop. Each slot holds a value as whole
 * units (floored) plus a nano-unit remainder in [0, 1e9), both exact doubles, so add, subtract,
 * compare and fits are exact and allocation-free for |value| up to 2^53-1 units (8 PiB of memory,
 * 9e15 cores). Beyond that a slot saturates to +/-Infinity and {@link isExact} turns false.
 *
 * Vectors of different lengths combine as if the shorter were zero-padded; unlike the exact
 * lists, a vector has no "missing" resource, so maxInPlace compares an absent slot as zero.
 * Saturated slots are a lower bound only (+Infinity - +Infinity is NaN); limits that large are
 * not expected in practice.
 */
export class ResourceVector {
  /** [units0, nanos0, units1, nanos1, ...] */
  #d: Float64Array;

  private constructor(data: Float64Array) {
    this.#d = data;
  }

  /** All zeros, one slot per registered resource (or the given slot count). */
  static zero(slots: ResourceSlots | number): ResourceVector {
    const n = typeof slots === 'number' ? slots : slots.size;
    return new ResourceVector(new Float64Array(2 * n));
  }

  /** The vector of an exact list, registering its names. */
  static fromList(list: ResourceList, slots: ResourceSlots): ResourceVector {
    for (const name of list.keys()) slots.slot(name);
    const v = ResourceVector.zero(slots);
    for (const [name, q] of list) v.setQuantity(slots.slot(name), q);
    return v;
  }

  /** Number of slots this vector holds. */
  get length(): number {
    return this.#d.length >> 1;
  }

  clone(): ResourceVector {
    return new ResourceVector(this.#d.slice());
  }

  /** Overwrites a slot with an exact quantity (saturating beyond 2^53-1 units). */
  setQuantity(slot: number, q: Quantity): this {
    this.#ensure(slot + 1);
    const n = q.nanos;
    let units = n / BIG_NANOS_PER_UNIT;
    let rest = n - units * BIG_NANOS_PER_UNIT;
    if (rest < 0n) {
      units -= 1n;
      rest += BIG_NANOS_PER_UNIT;
    }
    const d = this.#d;
    const i = slot << 1;
    if (units > BIG_MAX_UNITS || units < -BIG_MAX_UNITS) {
      d[i] = units > 0n ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      d[i + 1] = 0;
    } else {
      d[i] = Number(units);
      d[i + 1] = Number(rest);
    }
    return this;
  }

  /** Sets a slot to a whole number of units (e.g. pods: 1). */
  setUnits(slot: number, units: number): this {
    if (!Number.isInteger(units)) throw new RangeError(`units must be an integer, got ${units}`);
    this.#ensure(slot + 1);
    const saturated = units > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    this.#d[slot << 1] = units > MAX_UNITS || units < -MAX_UNITS ? saturated : units;
    this.#d[(slot << 1) + 1] = 0;
    return this;
  }

  /** The exact quantity of a slot; a saturated slot reads as +/-(2^53-1) units. */
  quantity(slot: number, format: QuantityFormat = QuantityFormats.DecimalSI): Quantity {
    const i = slot << 1;
    const d = this.#d;
    if (i >= d.length) return Quantity.zero(format);
    const u = d[i]!;
    if (u === Number.POSITIVE_INFINITY) return Quantity.fromUnits(MAX_UNITS, format);
    if (u === Number.NEGATIVE_INFINITY) return Quantity.fromUnits(-MAX_UNITS, format);
    return Quantity.fromNanos(BigInt(u) * BIG_NANOS_PER_UNIT + BigInt(d[i + 1]!), format);
  }

  /** The slot's value in whole units, floored; exact for unsaturated slots. */
  units(slot: number): number {
    return this.#d[slot << 1] ?? 0;
  }

  /** The slot's value as an approximate double, for scoring. */
  approx(slot: number): number {
    const i = slot << 1;
    return (this.#d[i] ?? 0) + (this.#d[i + 1] ?? 0) / NANOS_PER_UNIT;
  }

  /** False when any slot saturated, i.e. its value is no longer exact. */
  isExact(): boolean {
    const d = this.#d;
    for (let i = 0; i < d.length; i += 2) if (!Number.isFinite(d[i]!)) return false;
    return true;
  }

  isZero(): boolean {
    const d = this.#d;
    for (let i = 0; i < d.length; i++) if (d[i] !== 0) return false;
    return true;
  }

  /** this += other. */
  addInPlace(other: ResourceVector): this {
    const o = other.#d;
    this.#ensure(o.length >> 1);
    const d = this.#d;
    for (let i = 0; i < o.length; i += 2) {
      let units = d[i]! + o[i]!;
      let nanos = d[i + 1]! + o[i + 1]!;
      if (nanos >= NANOS_PER_UNIT) {
        nanos -= NANOS_PER_UNIT;
        units += 1;
      }
      if (units > MAX_UNITS || units < -MAX_UNITS) {
        units = units > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
        nanos = 0;
      }
      d[i] = units;
      d[i + 1] = nanos;
    }
    return this;
  }

  /** this -= other. */
  subInPlace(other: ResourceVector): this {
    const o = other.#d;
    this.#ensure(o.length >> 1);
    const d = this.#d;
    for (let i = 0; i < o.length; i += 2) {
      let units = d[i]! - o[i]!;
      let nanos = d[i + 1]! - o[i + 1]!;
      if (nanos < 0) {
        nanos += NANOS_PER_UNIT;
        units -= 1;
      }
      if (units > MAX_UNITS || units < -MAX_UNITS) {
        units = units > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
        nanos = 0;
      }
      d[i] = units;
      d[i + 1] = nanos;
    }
    return this;
  }

  /** this = max(this, other) per slot (a slot this lacks counts as zero). */
  maxInPlace(other: ResourceVector): this {
    const o = other.#d;
    this.#ensure(o.length >> 1);
    const d = this.#d;
    for (let i = 0; i < o.length; i += 2) {
      if (o[i]! > d[i]! || (o[i] === d[i] && o[i + 1]! > d[i + 1]!)) {
        d[i] = o[i]!;
        d[i + 1] = o[i + 1]!;
      }
    }
    return this;
  }

  add(other: ResourceVector): ResourceVector {
    return this.clone().addInPlace(other);
  }

  sub(other: ResourceVector): ResourceVector {
    return this.clone().subInPlace(other);
  }

  /** -1, 0 or 1 comparing one slot of this with the same slot of other. */
  cmpSlot(slot: number, other: ResourceVector): -1 | 0 | 1 {
    const i = slot << 1;
    const au = this.#d[i] ?? 0;
    const bu = other.#d[i] ?? 0;
    if (au !== bu) return au < bu ? -1 : 1;
    const an = this.#d[i + 1] ?? 0;
    const bn = other.#d[i + 1] ?? 0;
    return an < bn ? -1 : an > bn ? 1 : 0;
  }

  /**
   * Reading this as requests: true when every slot is at most available's and no slot of
   * available is negative; the same answer as {@link fits} on the exact lists.
   */
  fits(available: ResourceVector): boolean {
    const r = this.#d;
    const a = available.#d;
    const an = a.length;
    const rn = r.length;
    const n = Math.max(an, rn);
    for (let i = 0; i < n; i += 2) {
      const au = i < an ? a[i]! : 0;
      if (au < 0) return false;
      if (i < rn) {
        const ru = r[i]!;
        if (ru > au || (ru === au && r[i + 1]! > (i < an ? a[i + 1]! : 0))) return false;
      }
    }
    return true;
  }

  /**
   * The first slot that makes {@link fits} false, or -1: a negative slot of available first,
   * then the first slot whose request exceeds what is available.
   */
  firstMisfit(available: ResourceVector): number {
    const r = this.#d;
    const a = available.#d;
    const an = a.length;
    for (let i = 0; i < an; i += 2) if (a[i]! < 0) return i >> 1;
    const rn = r.length;
    for (let i = 0; i < rn; i += 2) {
      const ru = r[i]!;
      if (i >= an) {
        if (ru > 0 || (ru === 0 && r[i + 1]! > 0)) return i >> 1;
      } else {
        const au = a[i]!;
        if (ru > au || (ru === au && r[i + 1]! > a[i + 1]!)) return i >> 1;
      }
    }
    return -1;
  }

  /** The exact list of this vector's non-zero slots. */
  toList(slots: ResourceSlots): ResourceList {
    const out = new Map<string, Quantity>();
    const n = Math.min(this.length, slots.size);
    for (let s = 0; s < n; s++) {
      const i = s << 1;
      if (this.#d[i] === 0 && this.#d[i + 1] === 0) continue;
      const name = slots.nameOf(s);
      out.set(name, this.quantity(s, defaultFormatFor(name)));
    }
    return out;
  }

  /** The same shortfalls {@link shortfalls} reports for the exact lists, in slot order. */
  shortfalls(available: ResourceVector, slots: ResourceSlots): ResourceShortfall[] {
    const out: ResourceShortfall[] = [];
    const n = Math.max(this.length, available.length);
    for (let s = 0; s < available.length; s++) {
      if (available.#d[s << 1]! < 0) out.push(this.#shortfall(s, 'overcommitted', available, slots));
    }
    for (let s = 0; s < n; s++) {
      if (available.units(s) >= 0 && this.cmpSlot(s, available) > 0) {
        out.push(this.#shortfall(s, 'insufficient', available, slots));
      }
    }
    return out;
  }

  #shortfall(
    slot: number,
    kind: ResourceShortfall['kind'],
    available: ResourceVector,
    slots: ResourceSlots,
  ): ResourceShortfall {
    const resource = slots.nameOf(slot);
    const format = defaultFormatFor(resource);
    return {
      resource,
      kind,
      requested: this.quantity(slot, format),
      available: available.quantity(slot, format),
    };
  }

  #ensure(slots: number): void {
    if (this.#d.length >= 2 * slots) return;
    const grown = new Float64Array(2 * slots);
    grown.set(this.#d);
    this.#d = grown;
  }
}
