import { BuiltinProviders, type ProviderSource } from './builtin-providers.js';

/**
 * Whether an import failed because the module's package is not installed at all, as opposed to
 * a package that is there but broken (which must surface, not be skipped).
 */
export function isPackageNotInstalled(error: unknown, specifier: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message : String(error);
  return (
    message.includes(`'${specifier}'`) ||
    message.includes(`"${specifier}"`) ||
    message.includes(`${specifier}/`)
  );
}

/**
 * The part of a message about an unknown provider or catalog NAME that says which package to
 * install, when NAME (or NAME:region) is a built-in provider whose package is absent: the CLI
 * lists the cloud providers as optional peer dependencies, so `npm install @nodewright/cli`
 * alone brings no cloud SDK. Empty when NAME is not a built-in provider's, or when `known` (the
 * names that did load) shows its provider is there and only NAME is wrong.
 */
export function notInstalledHint(
  name: string,
  known: readonly string[] = [],
  builtins: readonly ProviderSource[] = BuiltinProviders,
): string {
  const provider = name.split(':')[0];
  const source = builtins.find((b) => b.name === provider);
  const loaded = known.some((k) => k === provider || k.startsWith(`${provider}:`));
  return source === undefined || loaded
    ? ''
    : `; the ${source.name} provider comes with ${source.specifier}, which is not installed (npm install ${source.specifier})`;
}
