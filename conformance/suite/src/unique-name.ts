/**
 * A copy of `manifest` whose `metadata.name` ends in `-<suffix>`, so tests sharing one
 * cluster do not collide. A lower-case suffix keeps a valid DNS-subdomain name valid and an
 * invalid one invalid (it cannot remove upper-case letters or underscores); a manifest
 * without a name is returned unchanged, still nameless.
 */
export function withNameSuffix<T>(manifest: T, suffix: string): T {
  if (!/^[a-z0-9]+$/.test(suffix))
    throw new Error(`suffix ${JSON.stringify(suffix)} is not lower-case alphanumeric`);
  const copy = structuredClone(manifest) as { metadata?: { name?: unknown } };
  if (typeof copy.metadata?.name === 'string') copy.metadata.name = `${copy.metadata.name}-${suffix}`;
  return copy as T;
}

/** `metadata.name` of a manifest, if it has one. */
export function nameOf(manifest: unknown): string | undefined {
  const name = (manifest as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  return typeof name === 'string' ? name : undefined;
}
