export type { Command, CommandArgs, CommandContext } from './command.js';
export { UsageError } from './command.js';
export { catalogsOf, createCommands } from './commands/index.js';
export {
  type ChartLine,
  escapeHtml,
  type LineChartOptions,
  lineChart,
} from './commands/simulate-svg.js';
export { createCliServices } from './compose.js';
export type { ControllerMainDependencies } from './controller-main.js';
export { controllerMain } from './controller-main.js';
export type { CliIo } from './io.js';
export type { MainProviders } from './main.js';
export { main } from './main.js';
export * from './providers/index.js';
export { type RunControllerOptions, runController } from './run-controller.js';
export type { CliServices, OutputFs } from './services.js';
