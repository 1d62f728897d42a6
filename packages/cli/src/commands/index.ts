import { CatalogProviders } from '@nodewright/core/catalog';
import { SystemClock } from '@nodewright/core/clock';
import { computeDisruption } from '@nodewright/core/disruption';
import type { ProviderPlugin } from '@nodewright/core/plugin';
import { explainLowerBound, podRequests, solve } from '@nodewright/core/scheduling';
import { runSimulation } from '@nodewright/core/simulation';
import type { Command } from '../command.js';
import { processControllerRuntime } from '../operator/process-runtime.js';
import { createControllerCommand } from './controller.js';
import { convertCommand } from './convert.js';
import { crdsCommand } from './crds.js';
import { createDisruptCommand } from './disrupt.js';
import { newCommand } from './new.js';
import { createScheduleCommand } from './schedule.js';
import { createSimulateCommand } from './simulate.js';
import { validateCommand } from './validate.js';

/** The catalogs `--catalog NAME` resolves: each provider's plug-in object contributes its own. */
export function catalogsOf(providers: readonly ProviderPlugin[]): CatalogProviders {
  return new CatalogProviders(providers.flatMap((p) => p.catalogs ?? []));
}

/**
 * Every `nodewright` subcommand, in the order help lists them, over the providers this command
 * line loaded (`defaultProvider`: the controller's `--provider` when none is given, the sole
 * `--provider-module`'s). A new command (disrupt, simulate, controller, explain) is one file in this folder
 * exporting a Command, added here.
 */
export function createCommands(providers: readonly ProviderPlugin[], defaultProvider?: string): Command[] {
  const catalogs = catalogsOf(providers);
  return [
    validateCommand,
    convertCommand,
    crdsCommand,
    createScheduleCommand({
      catalogs,
      solve,
      report: { podRequests, lowerBound: explainLowerBound },
    }),
    createDisruptCommand({ catalogs, clock: new SystemClock(), computeDisruption }),
    createSimulateCommand({ catalogs, run: runSimulation, wallClock: () => performance.now() }),
    createControllerCommand({
      providers: Object.fromEntries(providers.map((p) => [p.name, p])),
      runtime: processControllerRuntime,
      ...(defaultProvider === undefined ? {} : { defaultProvider }),
    }),
    newCommand,
  ];
}
