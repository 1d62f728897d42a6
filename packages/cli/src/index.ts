export type { Command, CommandArgs, CommandContext } from './command.js';
export { UsageError } from './command.js';
export { commands } from './commands/index.js';
export { createCliServices } from './compose.js';
export type { CliIo } from './io.js';
export { main } from './main.js';
export type { CliServices, OutputFs } from './services.js';
