import type { Command } from '../command.js';
import { convertCommand } from './convert.js';
import { crdsCommand } from './crds.js';
import { validateCommand } from './validate.js';

/**
 * Every `nodewright` subcommand, in the order help lists them. A new command (schedule,
 * disrupt, simulate, controller, explain) is one file in this folder exporting a Command,
 * added here.
 */
export const commands: readonly Command[] = [validateCommand, convertCommand, crdsCommand];
