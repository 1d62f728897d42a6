import { awsCatalogProvider, awsProviderPlugin, awsRegionCatalogProviders } from '@nodewright/aws';
import { CatalogProviders } from '@nodewright/core/catalog';
import { SystemClock } from '@nodewright/core/clock';
import { computeDisruption } from '@nodewright/core/disruption';
import { explainLowerBound, podRequests, solve } from '@nodewright/core/scheduling';
import { runSimulation } from '@nodewright/core/simulation';
import { kwokCatalogProvider, kwokProviderPlugin } from '@nodewright/kwok';
import type { Command } from '../command.js';
import { processControllerRuntime } from '../operator/process-runtime.js';
import { createControllerCommand } from './controller.js';
import { convertCommand } from './convert.js';
import { crdsCommand } from './crds.js';
import { createDisruptCommand } from './disrupt.js';
import { createScheduleCommand } from './schedule.js';
import { createSimulateCommand } from './simulate.js';
import { validateCommand } from './validate.js';

/** The catalogs `--catalog NAME` resolves; each provider package contributes its own. */
export const catalogProviders = new CatalogProviders([
  kwokCatalogProvider,
  awsCatalogProvider,
  ...awsRegionCatalogProviders,
]);

/**
 * Every `nodewright` subcommand, in the order help lists them. A new command (disrupt,
 * simulate, controller, explain) is one file in this folder exporting a Command, added here.
 */
export const commands: readonly Command[] = [
  validateCommand,
  convertCommand,
  crdsCommand,
  createScheduleCommand({
    catalogs: catalogProviders,
    solve,
    report: { podRequests, lowerBound: explainLowerBound },
  }),
  createDisruptCommand({ catalogs: catalogProviders, clock: new SystemClock(), computeDisruption }),
  createSimulateCommand({
    catalogs: catalogProviders,
    run: runSimulation,
    wallClock: () => performance.now(),
  }),
  createControllerCommand({
    providers: { kwok: kwokProviderPlugin, aws: awsProviderPlugin },
    runtime: processControllerRuntime,
  }),
];
