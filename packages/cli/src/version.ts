import { readFileSync } from 'node:fs';

/**
 * The CLI's version line, `nodewright X.Y.Z (node vA.B.C)`. Read from the package's own
 * package.json when asked (it sits one level above both src/ and dist/), so a packed
 * release reports the version it was published as.
 */
export function versionLine(nodeVersion: string = process.versions.node): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  const version = typeof manifest.version === 'string' ? manifest.version : 'unknown';
  return `nodewright ${version} (node v${nodeVersion})`;
}
