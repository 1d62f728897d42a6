/** The source of uids and `generateName` suffixes; injected so tests see stable values. */
export interface IdGenerator {
  /** A new object uid (UUID form). */
  uid(): string;
  /** Five characters appended to `metadata.generateName`. */
  nameSuffix(): string;
}

/** The alphabet Kubernetes draws generated-name suffixes from (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Deterministic ids: uids count up from 1, suffixes walk the alphabet. */
export class SequentialIdGenerator implements IdGenerator {
  #uids = 0;
  #names = 0;

  uid(): string {
    this.#uids++;
    return `00000000-0000-4000-8000-${this.#uids.toString(16).padStart(12, '0')}`;
  }

  nameSuffix(): string {
    let n = this.#names++;
    let out = '';
    for (let i = 0; i < 5; i++) {
      out = (SUFFIX_ALPHABET[n % SUFFIX_ALPHABET.length] as string) + out;
      n = Math.floor(n / SUFFIX_ALPHABET.length);
    }
    return out;
  }
}

/** Random ids from an injected source of uniform numbers in [0, 1). */
export class RandomIdGenerator implements IdGenerator {
  readonly #random: () => number;

  constructor(random: () => number) {
    this.#random = random;
  }

  uid(): string {
    const hex = () => Math.floor(this.#random() * 16).toString(16);
    const chunk = (n: number) => Array.from({ length: n }, hex).join('');
    const variant = (8 + Math.floor(this.#random() * 4)).toString(16);
    return `${chunk(8)}-${chunk(4)}-4${chunk(3)}-${variant}${chunk(3)}-${chunk(12)}`;
  }

  nameSuffix(): string {
    return Array.from(
      { length: 5 },
      () => SUFFIX_ALPHABET[Math.floor(this.#random() * SUFFIX_ALPHABET.length)] as string,
    ).join('');
  }
}
