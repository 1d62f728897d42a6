/** A source of uniform numbers in [0, 1). Injected wherever a simulation draws, so runs repeat. */
export interface Random {
  next(): number;
}

const TWO_POW_32 = 4_294_967_296;

/** FNV-1a over the UTF-16 code units of a string: a stable 32-bit seed from any text. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** splitmix32: spreads one 32-bit seed over several well-mixed state words. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) >>> 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A seeded pseudo-random generator (sfc32: 128 bits of state, fast, good enough for
 * simulation; not for cryptography). The same seed gives the same sequence on every platform.
 *
 * `fork(label)` derives an independent generator from the seed and the label only, not from
 * how much this one has drawn, so each component of a simulation can own a stream and a change
 * in how often one draws does not shift another's numbers.
 */
export class SeededRandom implements Random {
  readonly seed: string;
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number | string) {
    this.seed = String(seed);
    const state = { s: hash32(this.seed) };
    this.#a = splitmix32(state);
    this.#b = splitmix32(state);
    this.#c = splitmix32(state);
    this.#d = splitmix32(state);
    // The first outputs of sfc32 still show the seed; discard them.
    for (let i = 0; i < 12; i++) this.#step();
  }

  /** An independent generator for `label`, a pure function of this one's seed and the label. */
  fork(label: string): SeededRandom {
    return new SeededRandom(`${this.seed}/${label}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.#step() / TWO_POW_32;
  }

  /** A whole number in [0, n); n must be a positive integer. */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** True with probability p (p <= 0 never draws true, p >= 1 always does). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.next() < p;
  }

  /** Exponentially distributed waiting time with the given mean (Poisson arrivals). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Normally distributed (Box-Muller). */
  normal(mean: number, stddev: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + stddev * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  #step(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }
}
