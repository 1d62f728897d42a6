import type { ProviderPlugin } from '@nodewright/core/plugin';
import type { Command } from '../command.js';
import { type CommandName, CommandSummaries } from './summaries.js';

/**
 * A subcommand known by name and summary before anything it needs is loaded: `load` imports
 * its module and what it runs on (the solver for `schedule`, the simulator for `simulate`), so
 * a command line pays only for the command it runs and `--help` for none.
 */
export interface LazyCommand {
  readonly name: CommandName;
  readonly summary: string;
  /** Builds the command over the providers this command line loaded (see createCommands). */
  load(providers: readonly ProviderPlugin[], defaultProvider?: string): Promise<Command>;
}

const entry = (name: CommandName, load: LazyCommand['load']): LazyCommand => ({
  name,
  summary: CommandSummaries[name],
  load,
});

/** Every subcommand, in the order help lists them (that of createCommands). */
export const LazyCommands: readonly LazyCommand[] = [
  entry('validate', async () => (await import('./validate.js')).validateCommand),
  entry('convert', async () => (await import('./convert.js')).convertCommand),
  entry('crds', async () => (await import('./crds.js')).crdsCommand),
  entry('schedule', async (providers) => {
    const [{ createScheduleCommand }, scheduling, { catalogsOf }, { liveInputsOf }] = await Promise.all([
      import('./schedule.js'),
      import('@nodewright/core/scheduling'),
      import('./catalogs-of.js'),
      import('../live/live-inputs.js'),
    ]);
    return createScheduleCommand({
      catalogs: catalogsOf(providers),
      solve: scheduling.solve,
      report: { podRequests: scheduling.podRequests, lowerBound: scheduling.explainLowerBound },
      live: liveInputsOf(providers),
    });
  }),
  entry('disrupt', async (providers) => {
    const [
      { createDisruptCommand },
      { computeDisruption },
      { SystemClock },
      { catalogsOf },
      { liveInputsOf },
    ] = await Promise.all([
      import('./disrupt.js'),
      import('@nodewright/core/disruption'),
      import('@nodewright/core/clock'),
      import('./catalogs-of.js'),
      import('../live/live-inputs.js'),
    ]);
    const clock = new SystemClock();
    return createDisruptCommand({
      catalogs: catalogsOf(providers),
      clock,
      // Consolidation's time budgets run on wall time, as in the controller.
      computeDisruption: (snapshot, now) => computeDisruption(snapshot, now, { searchClock: clock }),
      live: liveInputsOf(providers),
    });
  }),
  entry('why', async (providers) => {
    const [
      { createWhyCommand },
      { solve },
      { computeDisruption },
      { SystemClock },
      { catalogsOf },
      { liveInputsOf },
    ] = await Promise.all([
      import('./why.js'),
      import('@nodewright/core/scheduling'),
      import('@nodewright/core/disruption'),
      import('@nodewright/core/clock'),
      import('./catalogs-of.js'),
      import('../live/live-inputs.js'),
    ]);
    const clock = new SystemClock();
    return createWhyCommand({
      catalogs: catalogsOf(providers),
      solve,
      clock,
      computeDisruption: (snapshot, now) => computeDisruption(snapshot, now, { searchClock: clock }),
      live: liveInputsOf(providers),
    });
  }),
  entry('simulate', async (providers) => {
    const [{ createSimulateCommand }, { runSimulation }, { catalogsOf }] = await Promise.all([
      import('./simulate.js'),
      import('@nodewright/core/simulation'),
      import('./catalogs-of.js'),
    ]);
    return createSimulateCommand({
      catalogs: catalogsOf(providers),
      run: runSimulation,
      wallClock: () => performance.now(),
    });
  }),
  entry('controller', async (providers, defaultProvider) => {
    const [{ createControllerCommand }, { processControllerRuntime }] = await Promise.all([
      import('./controller.js'),
      import('../operator/process-runtime.js'),
    ]);
    return createControllerCommand({
      providers: Object.fromEntries(providers.map((p) => [p.name, p])),
      runtime: processControllerRuntime,
      ...(defaultProvider === undefined ? {} : { defaultProvider }),
    });
  }),
  entry('new', async () => (await import('./new.js')).newCommand),
];
