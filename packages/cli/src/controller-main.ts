import { parseCommandArgs } from './args.js';
import { type ControllerCommandDependencies, createControllerCommand } from './commands/controller.js';
import { type ProviderLoader, providerLoaders } from './commands/provider-loaders.js';
import type { CliIo } from './io.js';
import { ControllerOptions } from './operator/flags.js';
import { processControllerRuntime } from './operator/process-runtime.js';
import { runCommand } from './run-command.js';
import type { CliServices } from './services.js';

/**
 * `nodewright controller ARGS`, as `main` runs it, but loading only the provider package
 * `--provider` names rather than every command's dependencies: the controller runs for days,
 * and what it loads it keeps. Everything is loaded when the line asks for help or names no
 * known provider, so help texts and usage errors are the same as through `main`.
 */
export async function controllerMain(
  argv: readonly string[],
  io: CliIo,
  deps: {
    readonly loaders?: Readonly<Record<string, ProviderLoader>>;
    readonly runtime?: ControllerCommandDependencies['runtime'];
  } = {},
): Promise<number> {
  const loaders = deps.loaders ?? providerLoaders;
  const names = Object.keys(loaders);
  const chosen = chosenProvider(argv);
  const load = chosen !== undefined && Object.hasOwn(loaders, chosen) ? [chosen] : names;
  const providers = Object.fromEntries(
    await Promise.all(load.map(async (name) => [name, await loaders[name]!()] as const)),
  );
  const command = createControllerCommand({
    providers,
    providerNames: names,
    runtime: deps.runtime ?? processControllerRuntime,
  });
  return runCommand(command, argv, io, noServices);
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
