import type { ProviderPlugin } from '@nodewright/core/plugin';
import type { ProviderSource } from './builtin-providers.js';
import { isPackageNotInstalled } from './not-installed.js';
import { loadProviderModule, loadProviderSource, type ModuleImporter } from './provider-module.js';

/** Where a command line's providers come from. */
export interface ProviderSetOptions {
  /** The built-in providers to load (BuiltinProviders, or a test's own). */
  readonly builtins: readonly ProviderSource[];
  /** `--provider-module` specifiers, in command-line order. */
  readonly modules: readonly string[];
  /** Where the specifiers are resolved from: the current directory. */
  readonly cwd: string;
  readonly importer?: ModuleImporter;
}

/** The providers of one command line. */
export interface ProviderSet {
  /** Built-in providers, then the modules' (a module replaces a built-in of its name). */
  readonly all: readonly ProviderPlugin[];
  /** Those loaded from `--provider-module`, in command-line order. */
  readonly modules: readonly ProviderPlugin[];
  /** Built-in providers whose package is not installed (the CLI's optional peers), by name. */
  readonly notInstalled: readonly string[];
}

/**
 * Every provider plug-in object one command line sees: the built-in ones, then those of its
 * `--provider-module` packages. A module provider of a built-in's name replaces it (a fork of
 * the in-tree provider runs as it); two modules of one name are refused. A built-in provider
 * whose package is not installed is left out and named in `notInstalled`.
 * @throws Error naming the module that failed to load or clashes.
 */
export async function loadProviderSet(options: ProviderSetOptions): Promise<ProviderSet> {
  const modules = await loadModules(options);
  const replaced = new Set(modules.map((m) => m.name));
  const builtins = await loadInstalled(options.builtins.filter((b) => !replaced.has(b.name)));
  return { all: [...builtins.loaded, ...modules], modules, notInstalled: builtins.notInstalled };
}

/**
 * Loads each source, leaving out those whose package is absent; any other failure (a package
 * that is there but broken) is thrown.
 */
export async function loadInstalled(
  sources: readonly ProviderSource[],
): Promise<{ loaded: ProviderPlugin[]; notInstalled: string[] }> {
  const results = await Promise.all(
    sources.map(async (source) => {
      try {
        return await loadProviderSource(source);
      } catch (error) {
        if (isPackageNotInstalled(error, source.specifier)) return source.name;
        throw error;
      }
    }),
  );
  return {
    loaded: results.filter((r): r is ProviderPlugin => typeof r !== 'string'),
    notInstalled: results.filter((r): r is string => typeof r === 'string'),
  };
}

/** The `--provider-module` plug-in objects alone, names checked unique. */
export async function loadModules(
  options: Pick<ProviderSetOptions, 'modules' | 'cwd' | 'importer'>,
): Promise<ProviderPlugin[]> {
  const plugins: ProviderPlugin[] = [];
  const from = new Map<string, string>();
  for (const specifier of options.modules) {
    const plugin = await loadProviderModule(specifier, options.cwd, options.importer);
    const earlier = from.get(plugin.name);
    if (earlier !== undefined) {
      throw new Error(`${specifier}: provider "${plugin.name}" is already loaded from ${earlier}`);
    }
    from.set(plugin.name, specifier);
    plugins.push(plugin);
  }
  return plugins;
}

/** The `--provider` a controller runs when none is given: the one module's, if exactly one. */
export function soleModule(set: Pick<ProviderSet, 'modules'>): string | undefined {
  return set.modules.length === 1 ? set.modules[0]!.name : undefined;
}
