import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asProviderPlugin, type ProviderPlugin } from '@nodewright/core/plugin';
import type { ProviderSource } from './builtin-providers.js';

/** Imports a resolved module URL; the real one is `import()`, tests pass their own. */
export type ModuleImporter = (url: string) => Promise<unknown>;

/**
 * The plug-in object a loaded module exports: its `default` export, checked against
 * ProviderPlugin's documented shape.
 * @throws Error naming `specifier` and what is missing or malformed.
 */
export function pluginOfModule(module: unknown, specifier: string): ProviderPlugin {
  const exported = (module as { default?: unknown } | null)?.default;
  if (exported === undefined) {
    throw new Error(
      `${specifier}: has no default export; a provider module default-exports its plug-in object`,
    );
  }
  return asProviderPlugin(exported, specifier);
}

/** Loads a built-in (or any) ProviderSource and checks what it exports. */
export async function loadProviderSource(source: ProviderSource): Promise<ProviderPlugin> {
  const plugin = pluginOfModule(await source.load(), source.specifier);
  if (plugin.name !== source.name) {
    throw new Error(`${source.specifier}: exports provider "${plugin.name}", registered as "${source.name}"`);
  }
  return plugin;
}

/**
 * Where `--provider-module SPEC` points, resolved from `cwd` as node resolves an import there:
 * a path (`./dist/index.js`, `/abs/dir`, `..`) relative to `cwd`, a package folder through its own
 * package.json `exports`; otherwise a package name looked
 * up in the `node_modules` folders from `cwd` upwards, through its package.json `exports`
 * (`default`/`node` conditions) or `main`.
 * @throws Error naming SPEC and `cwd` when nothing is found.
 */
export function resolveProviderModule(specifier: string, cwd: string): string {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  const from = createRequire(join(cwd, 'noop.js'));
  try {
    const folderPackage = isPath ? packageNameOfFolder(resolve(cwd, specifier)) : undefined;
    if (folderPackage !== undefined) {
      // A package folder: its own `exports` decide, as they would for an import of its name.
      const inside = createRequire(join(resolve(cwd, specifier), 'noop.js'));
      return pathToFileURL(inside.resolve(folderPackage)).href;
    }
    return pathToFileURL(from.resolve(isPath ? resolve(cwd, specifier) : specifier)).href;
  } catch (err) {
    const reason = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
    throw new Error(`${specifier}: cannot be resolved from ${cwd}: ${reason}`);
  }
}

/** The package name of a folder whose package.json has `name` and `exports`, else undefined. */
function packageNameOfFolder(dir: string): string | undefined {
  let manifest: { name?: unknown; exports?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  return typeof manifest.name === 'string' && manifest.exports !== undefined ? manifest.name : undefined;
}

/** `--provider-module SPEC`: resolves it from `cwd`, imports it and returns its plug-in object. */
export async function loadProviderModule(
  specifier: string,
  cwd: string,
  importer: ModuleImporter = (url) => import(url),
): Promise<ProviderPlugin> {
  const url = resolveProviderModule(specifier, cwd);
  let module: unknown;
  try {
    module = await importer(url);
  } catch (err) {
    throw new Error(`${specifier}: cannot be imported: ${err instanceof Error ? err.message : String(err)}`);
  }
  return pluginOfModule(module, specifier);
}
