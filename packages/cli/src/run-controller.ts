import type { ProviderPlugin } from '@nodewright/core/plugin';
import { controllerMain } from './controller-main.js';
import type { CliIo } from './io.js';
import { relaunchWithControllerFlags } from './operator/relaunch.js';

/** A provider's own controller binary: what `runController` runs. */
export interface RunControllerOptions {
  /**
   * The plug-in objects the binary runs (usually one: then `--provider` may be left out). No
   * built-in provider is loaded; `--provider-module` still adds more.
   */
  readonly providers: readonly ProviderPlugin[];
  /** The controller's arguments (what follows `nodewright controller`); default process.argv.slice(2). */
  readonly argv?: readonly string[];
  /** Default the process's stdout, stderr, stdin and cwd. */
  readonly io?: CliIo;
  /**
   * Re-execute the process under the controller's V8 heap flags first, as `nodewright controller`
   * does (see ControllerNodeFlags); default true. The entry script is run again with the same
   * arguments, so this must be called from the binary's entry module.
   */
  readonly relaunch?: boolean;
}

/**
 * `nodewright controller` for a provider shipping its own binary: flags, start-up, leader
 * election, servers and shutdown exactly as the built-in command, over the given providers.
 * Resolves to the exit status (0 stopped by a signal, 1 start-up failed or leadership lost,
 * 2 usage error); the binary sets `process.exitCode` to it:
 *
 * ```ts
 * #!/usr/bin/env node
 * import { runController } from '@nodewright/cli/controller';
 * import myProvider from './index.js';
 * process.exitCode = await runController({ providers: [myProvider] });
 * ```
 */
export async function runController(options: RunControllerOptions): Promise<number> {
  const argv = options.argv ?? process.argv.slice(2);
  if (options.relaunch !== false) relaunchWithControllerFlags(process.argv[1], process.argv.slice(2));
  // Before anything loads client-node: its KubeConfig would otherwise load every generated API client.
  const { registerHooks } = await import('node:module');
  registerHooks((await import('@nodewright/core/kube')).clientNodeSubsetHooks());
  const io = options.io ?? {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
  };
  return controllerMain(argv, io, { providers: options.providers });
}
