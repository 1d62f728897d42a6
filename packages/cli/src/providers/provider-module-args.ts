import { UsageError } from '../command.js';

/** The flag every command takes to load an out-of-tree provider package. */
export const ProviderModuleFlag = '--provider-module';

/** Help lines for ProviderModuleFlag, shared by the top-level and controller help texts. */
export const ProviderModuleHelp = `  --provider-module PACKAGE|PATH    Load an out-of-tree provider: a package name
                                    (resolved from the current directory, as node
                                    resolves imports) or a path to its module, whose
                                    default export is the provider plug-in object.
                                    Repeatable. Its NodeClass kinds, converters and
                                    catalogs join the built-in ones.`;

/**
 * Takes every `--provider-module SPEC` / `--provider-module=SPEC` out of a command line (before
 * a `--`), returning the specifiers and the remaining arguments for the command's own parser.
 * @throws UsageError when the flag has no value.
 */
export function splitProviderModuleArgs(argv: readonly string[]): { modules: string[]; rest: string[] } {
  const modules: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith(`${ProviderModuleFlag}=`)) {
      modules.push(nonEmpty(arg.slice(ProviderModuleFlag.length + 1)));
    } else if (arg === ProviderModuleFlag) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-'))
        throw new UsageError(`option ${ProviderModuleFlag} needs a value`);
      modules.push(nonEmpty(value));
      i++;
    } else {
      rest.push(arg);
    }
  }
  return { modules, rest };
}

function nonEmpty(value: string): string {
  if (value === '') throw new UsageError(`${ProviderModuleFlag} must not be empty`);
  return value;
}
