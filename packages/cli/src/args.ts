import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { type CommandArgs, UsageError } from './command.js';

/**
 * Parses a subcommand's arguments strictly (unknown options and stray arguments are usage
 * errors). Accepts `-f=FILE` as well as `-f FILE`, as kubectl users write both.
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: ParseArgsOptionsConfig,
  positionals: { min: number; max: number } = { min: 0, max: 0 },
): CommandArgs & { help: boolean } {
  const args = argv.flatMap((arg) => {
    const short = /^-([A-Za-z])=(.*)$/s.exec(arg);
    return short ? [`-${short[1]}`, short[2]!] : [arg];
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: positionals.max > 0,
    });
  } catch (error) {
    // A request for help wins over whatever else is wrong with the line.
    if (args.includes('--help') || args.includes('-h')) return { values: {}, positionals: [], help: true };
    throw new UsageError(describeParseError(error));
  }
  const help = parsed.values.help === true;
  if (!help && parsed.positionals.length < positionals.min) throw new UsageError('missing argument');
  if (!help && parsed.positionals.length > positionals.max) {
    throw new UsageError(`unexpected argument '${parsed.positionals[positionals.max]}'`);
  }
  return { values: parsed.values, positionals: parsed.positionals, help };
}

function describeParseError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  const quoted = /'([^']*)'/.exec(error.message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${quoted}'`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = quoted?.split(' ')[0]?.replace(/,$/, '');
      if (/does not take an argument/.test(error.message)) return `option ${option} does not take a value`;
      return `option ${option} needs a value`;
    }
    default:
      return error.message.split('\n')[0] ?? error.message;
  }
}
