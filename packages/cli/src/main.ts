import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { createCliServices } from './compose.js';
import type { CliIo } from './io.js';
import { runCommand } from './run-command.js';
import type { CliServices } from './services.js';
import { topLevelUsage } from './usage.js';

export type { CliIo } from './io.js';

/**
 * Runs one `nodewright` command line and returns its exit status: 0 success, 1 invalid
 * input or problems found, 2 usage error. Everything goes through `io`; `services` defaults
 * to the real composition and is built only when a command runs.
 */
export async function main(
  argv: string[],
  io: CliIo,
  services: () => CliServices = createCliServices,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(topLevelUsage(commands));
    return 2;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(topLevelUsage(commands));
    return 0;
  }
  if (name === 'help') {
    const command = find(rest[0]!);
    if (command === undefined || rest.length > 1) return unknownCommand(io, rest.join(' '));
    io.stdout.write(command.help);
    return 0;
  }
  const command = find(name);
  if (command === undefined) return unknownCommand(io, name);
  return runCommand(command, rest, io, services);
}

function find(name: string): Command | undefined {
  return commands.find((c) => c.name === name);
}

function unknownCommand(io: CliIo, name: string): number {
  const what = name.startsWith('-') ? `unknown option '${name}'` : `unknown command '${name}'`;
  io.stderr.write(`nodewright: ${what}\n${topLevelUsage(commands)}`);
  return 2;
}
