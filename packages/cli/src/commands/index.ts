import type { ProviderPlugin } from '@nodewright/core/plugin';
import type { Command } from '../command.js';
import { LazyCommands } from './lazy-commands.js';

export { catalogsOf } from './catalogs-of.js';
export { type LazyCommand, LazyCommands } from './lazy-commands.js';

/**
 * Every `nodewright` subcommand, in the order help lists them, over the providers this command
 * line loaded (`defaultProvider`: the controller's `--provider` when none is given, the sole
 * `--provider-module`'s), all loaded at once; the CLI itself loads only the one it runs (see
 * LazyCommands). A new command is one file in this folder exporting a Command, listed in
 * LazyCommands and CommandSummaries.
 */
export function createCommands(
  providers: readonly ProviderPlugin[],
  defaultProvider?: string,
): Promise<Command[]> {
  return Promise.all(LazyCommands.map((c) => c.load(providers, defaultProvider)));
}
