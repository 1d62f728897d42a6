import { readFileSync } from 'node:fs';

/** The CLI package's version, read from its own package.json (one level above src/ and dist/). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/**
 * The CLI's version line, `nodewright X.Y.Z (node vA.B.C)`. Read from the package's own
 * package.json when asked, so a packed release reports the version it was published as.
 */
export function versionLine(nodeVersion: string = process.versions.node): string {
  return `nodewright ${packageVersion()} (node v${nodeVersion})`;
}
