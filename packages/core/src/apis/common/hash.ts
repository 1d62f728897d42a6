import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level and `undefined` members left out, so equal
 * values serialise to equal text whatever order their keys were written in. Arrays keep their
 * order; callers sort the ones that are sets.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value)) ?? 'null';
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortDeep(v)));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = sortDeep(member);
  }
  return out;
}

/** Sorts the members of a list that means a set by their canonical JSON, so order is irrelevant. */
export function asSet<T>(items: readonly T[] | undefined): T[] | undefined {
  if (items === undefined || items.length === 0) return undefined;
  return [...items].sort((a, b) => {
    const x = canonicalJson(a);
    const y = canonicalJson(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** An empty map hashes like an absent one, as a zero value does upstream. */
export function nonEmpty<T extends object>(map: T | undefined): T | undefined {
  return map === undefined || Object.keys(map).length === 0 ? undefined : map;
}

/**
 * A short stable hash of a value: the first 64 bits of the SHA-256 of its canonical JSON, as an
 * unsigned decimal (the shape of Karpenter's hash annotations).
 */
export function stableHash(value: unknown): string {
  const digest = createHash('sha256').update(canonicalJson(value)).digest();
  return digest.readBigUInt64BE(0).toString(10);
}
