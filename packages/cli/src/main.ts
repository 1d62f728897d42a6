import type { ProviderPlugin } from '@nodewright/core/plugin';
import { UsageError } from './command.js';
import { type LazyCommand, LazyCommands } from './commands/lazy-commands.js';
import type { CliIo } from './io.js';
import { BuiltinProviders, type ProviderSource } from './providers/builtin-providers.js';
import type { ModuleImporter } from './providers/provider-module.js';
import { splitProviderModuleArgs } from './providers/provider-module-args.js';
import { loadProviderSet, type ProviderSet, soleModule } from './providers/provider-set.js';
import { runCommand } from './run-command.js';
import type { CliServices } from './services.js';
import { topLevelUsage } from './usage.js';
import { versionLine } from './version.js';

export type { CliIo } from './io.js';

/** Where `main` finds providers; the defaults are the real ones. */
export interface MainProviders {
  /** Default BuiltinProviders. */
  readonly builtins?: readonly ProviderSource[];
  /** How `--provider-module` modules are imported; default `import()`. */
  readonly importer?: ModuleImporter;
}

/**
 * Runs one `nodewright` command line and returns its exit status: 0 success, 1 invalid
 * input or problems found, 2 usage error. Everything goes through `io`; `services` defaults
 * to the real composition over the loaded providers and is built only when a command runs.
 * `--provider-module SPEC` (any command, repeatable) adds an out-of-tree provider's kinds,
 * converters and catalogs to the built-in ones. Help, usage errors and `--version` load no
 * provider and no command; a command line loads its own command only (see LazyCommands).
 */
export async function main(
  argv: string[],
  io: CliIo,
  services?: (providers: readonly ProviderPlugin[]) => CliServices,
  providerSources: MainProviders = {},
): Promise<number> {
  const commands = LazyCommands;
  let split: { modules: string[]; rest: string[] };
  try {
    split = splitProviderModuleArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`nodewright: ${error.message}\n${topLevelUsage(commands)}`);
    return 2;
  }
  if (split.rest[0] === '--version' || split.rest[0] === 'version') {
    io.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  const [name, ...rest] = split.rest;
  if (name === undefined) {
    io.stderr.write(topLevelUsage(commands));
    return 2;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(topLevelUsage(commands));
    return 0;
  }
  const lazy = find(commands, name === 'help' ? rest[0]! : name);
  if (name === 'help' && (lazy === undefined || rest.length > 1)) return unknownCommand(io, rest.join(' '));
  if (lazy === undefined) return unknownCommand(io, name);
  let providers: ProviderSet;
  try {
    const options = {
      builtins: providerSources.builtins ?? BuiltinProviders,
      modules: split.modules,
      cwd: io.cwd,
      ...(providerSources.importer === undefined ? {} : { importer: providerSources.importer }),
    };
    providers = await loadProviderSet(options);
  } catch (error) {
    io.stderr.write(
      `nodewright: --provider-module ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const command = await lazy.load(providers.all, soleModule(providers));
  if (name === 'help') {
    io.stdout.write(command.help);
    return 0;
  }
  // Every command but the controller builds services; the composition loads with them.
  const compose = services ?? (await import('./compose.js')).createCliServices;
  return runCommand(command, rest, io, () => compose(providers.all));
}

function find(commands: readonly LazyCommand[], name: string): LazyCommand | undefined {
  return commands.find((c) => c.name === name);
}

function unknownCommand(io: CliIo, name: string): number {
  const what = name.startsWith('-') ? `unknown option '${name}'` : `unknown command '${name}'`;
  io.stderr.write(`nodewright: ${what}\n${topLevelUsage(LazyCommands)}`);
  return 2;
}
