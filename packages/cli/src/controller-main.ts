import type { ProviderPlugin } from '@nodewright/core/plugin';
import { parseCommandArgs } from './args.js';
import { UsageError } from './command.js';
import { type ControllerCommandDependencies, createControllerCommand } from './commands/controller.js';
import type { CliIo } from './io.js';
import { ControllerFlagEnv } from './operator/flag-environment.js';
import { ControllerOptions } from './operator/flags.js';
import { processControllerRuntime } from './operator/process-runtime.js';
import { BuiltinProviders, type ProviderSource } from './providers/builtin-providers.js';
import type { ModuleImporter } from './providers/provider-module.js';
import { splitProviderModuleArgs } from './providers/provider-module-args.js';
import { loadInstalled, loadModules } from './providers/provider-set.js';
import { runCommand } from './run-command.js';
import type { CliServices } from './services.js';

/** What `controllerMain` runs with; every field has the real default. */
export interface ControllerMainDependencies {
  /** Providers loadable by name; default BuiltinProviders. */
  readonly builtins?: readonly ProviderSource[];
  /**
   * Providers already loaded, which take the place of the built-in ones (a provider's own binary
   * passes its plug-in object here: see runController).
   */
  readonly providers?: readonly ProviderPlugin[];
  readonly importer?: ModuleImporter;
  readonly runtime?: ControllerCommandDependencies['runtime'];
}

/**
 * `nodewright controller ARGS`, as `main` runs it, but loading only the provider package
 * `--provider` names rather than every command's dependencies: the controller runs for days,
 * and what it loads it keeps. `--provider-module` packages are always loaded (they were asked
 * for); the built-in ones are all loaded only when the line asks for help or names no known
 * provider, so help texts and usage errors are the same as through `main`.
 */
export async function controllerMain(
  argv: readonly string[],
  io: CliIo,
  deps: ControllerMainDependencies = {},
): Promise<number> {
  let split: { modules: string[]; rest: string[] };
  let extra: ProviderPlugin[];
  try {
    split = splitProviderModuleArgs(argv);
    const options = {
      modules: split.modules,
      cwd: io.cwd,
      ...(deps.importer ? { importer: deps.importer } : {}),
    };
    extra = [...(deps.providers ?? []), ...(await loadModules(options))];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      io.stderr.write(`nodewright controller: ${message}\nRun "nodewright controller --help" for details.\n`);
      return 2;
    }
    io.stderr.write(`nodewright controller: --provider-module ${message}\n`);
    return 1;
  }
  const given = new Set(extra.map((p) => p.name));
  // A binary of its own (runController) runs the providers it was given, and no built-in ones.
  const builtins =
    deps.providers === undefined ? (deps.builtins ?? BuiltinProviders).filter((b) => !given.has(b.name)) : [];
  const defaultProvider = extra.length === 1 ? extra[0]!.name : undefined;
  // Built once: the provider choice reads its environment, and the command runs on the same one.
  const built = (deps.runtime ?? processControllerRuntime)();
  const runtime = () => built;
  const chosen =
    chosenProvider(split.rest) ?? built.variable?.(ControllerFlagEnv.provider) ?? defaultProvider;
  const known = chosen !== undefined && (given.has(chosen) || builtins.some((b) => b.name === chosen));
  const load = known ? builtins.filter((b) => b.name === chosen) : builtins;
  const { loaded, notInstalled } = await loadInstalled(load);
  const providers = Object.fromEntries([...loaded, ...extra].map((p) => [p.name, p]));
  const command = createControllerCommand({
    providers,
    providerNames: [...builtins.map((b) => b.name).filter((n) => !notInstalled.includes(n)), ...given],
    notInstalled,
    ...(defaultProvider === undefined ? {} : { defaultProvider }),
    runtime,
  });
  return runCommand(command, split.rest, io, noServices);
}

/** The `--provider` of a well-formed line that does not ask for help. */
function chosenProvider(argv: readonly string[]): string | undefined {
  try {
    const args = parseCommandArgs(argv, ControllerOptions);
    const provider = args.values.provider;
    return args.help || typeof provider !== 'string' ? undefined : provider;
  } catch {
    return undefined; // runCommand reports what is wrong with the line
  }
}

function noServices(): CliServices {
  throw new Error('nodewright controller uses no CLI services');
}
