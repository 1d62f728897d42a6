import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The `nodewright` bin of the `@nodewright/cli` package installed where `cwd` resolves it (a
 * provider package's own node_modules), read from that package's package.json.
 * @throws Error naming `cwd` when @nodewright/cli is not installed there.
 */
export function resolveCliBin(cwd: string): string {
  let manifest: string;
  try {
    manifest = createRequire(join(cwd, 'noop.js')).resolve('@nodewright/cli/package.json');
  } catch {
    throw new Error(
      `@nodewright/cli cannot be resolved from ${cwd}: install it (the e2e suite runs its controller) or pass binPath`,
    );
  }
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin
    ?.nodewright;
  if (bin === undefined) throw new Error(`${manifest} has no "nodewright" bin`);
  return join(dirname(manifest), bin);
}
