import { join } from 'node:path';

/**
 * Where node's compile cache (V8's code cache on disk) for the CLI lives, or undefined when it is
 * off: `NODE_DISABLE_COMPILE_CACHE` (node's own switch) turns it off, `NODE_COMPILE_CACHE` (node's
 * own variable) names the folder, else a `nodewright/compile-cache` folder under the user's cache
 * folder (`XDG_CACHE_HOME`, else `~/.cache`), else under the temporary folder when there is no home.
 */
export function compileCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
  tmp: string,
): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined) return undefined;
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  const cacheHome = env.XDG_CACHE_HOME || (home ? join(home, '.cache') : undefined);
  return join(cacheHome ?? tmp, 'nodewright', 'compile-cache');
}
