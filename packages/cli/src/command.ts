import type { ParseArgsOptionsConfig } from 'node:util';
import type { CliIo } from './io.js';
import type { CliServices } from './services.js';

/** Option values as node:util parseArgs returns them. */
export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface CommandArgs {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
}

export interface CommandContext {
  readonly io: CliIo;
  readonly services: CliServices;
}

/**
 * One `nodewright <name>` subcommand. `main` parses the arguments against `options` (plus
 * `-h/--help`, which prints `help`), so a command only sees well-formed arguments; it throws
 * UsageError for combinations parseArgs cannot check, and returns the exit code.
 */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after `usage: `, e.g. `nodewright validate -f FILE... [-R]`. */
  readonly usage: string;
  /** Full help text, printed by `--help`. */
  readonly help: string;
  readonly options: ParseArgsOptionsConfig;
  /** Positional arguments the command takes, if any (e.g. `simulate SCENARIO`). */
  readonly positionals?: { readonly min: number; readonly max: number };
  run(args: CommandArgs, context: CommandContext): Promise<number>;
}

/** A command line that does not fit the command's synopsis: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `-f/--filename` and `-R/--recursive`, shared by the commands that read manifests. */
export const InputOptions = {
  filename: { type: 'string', short: 'f', multiple: true },
  recursive: { type: 'boolean', short: 'R' },
  strict: { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

/** Help lines describing InputOptions, for a command's help text. */
export const InputOptionsHelp = `  -f, --filename FILE  Manifests to read; repeatable. FILE is a file holding YAML
                       documents (separated by ---), a JSON object, a kind: List or a
                       JSON array; - reads standard input; a directory stands for its
                       *.yaml, *.yml and *.json files, in name order, not descending
                       into subdirectories.
  -R, --recursive      Also read the subdirectories of directories given with -f.
      --strict         Objects of kinds nodewright does not read (Deployment without
                       --expand-workloads, Service, ConfigMap, ...) are errors; by
                       default each is skipped with one line on stderr.`;

/** The -f files of a command line; at least one is required. */
export function requireFiles(values: OptionValues): string[] {
  const files = values.filename;
  if (!Array.isArray(files) || files.length === 0) throw new UsageError('-f FILE is required');
  return files.map(String);
}
