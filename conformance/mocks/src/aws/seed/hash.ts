import { createHash } from 'node:crypto';

/** Deterministic hex digits for `text`, so seeded ids and prices never change between runs. */
export function hexOf(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** A deterministic fraction in [0, 1) for `text`. */
export function fractionOf(text: string): number {
  return Number.parseInt(hexOf(text, 8), 16) / 0x1_0000_0000;
}
