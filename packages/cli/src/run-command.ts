import { parseCommandArgs } from './args.js';
import { type Command, type CommandContext, UsageError } from './command.js';
import { type CliIo, writeErrors } from './io.js';
import type { CliServices } from './services.js';
import { commandUsageError } from './usage.js';

/**
 * Runs one subcommand on its arguments: `--help` prints its help (0), a UsageError prints the
 * problem and the synopsis (2), any other failure is an internal error (1). `services` is built
 * on the command's first use of it only, so a command that needs none (the controller) never
 * loads what they are made of.
 */
export async function runCommand(
  command: Command,
  argv: readonly string[],
  io: CliIo,
  services: () => CliServices,
): Promise<number> {
  try {
    const args = parseCommandArgs(argv, command.options, command.positionals);
    if (args.help) {
      io.stdout.write(command.help);
      return 0;
    }
    let built: CliServices | undefined;
    const context: CommandContext = {
      io,
      get services() {
        built ??= services();
        return built;
      },
    };
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError) {
      writeErrors(io.stderr, [commandUsageError(command, error.message).trimEnd()]);
      return 2;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeErrors(io.stderr, [`nodewright ${command.name}: internal error: ${detail}`]);
    return 1;
  }
}
