/** The spellings of a new provider's name the template's placeholders stand for. */
export interface ProviderNames {
  /** As given, lower-case with dashes: `--provider` value, package suffix, providerID scheme. */
  readonly name: string;
  /** PascalCase, for the NodeClass kind: `my-cloud` -> `MyCloud` (`MyCloudNodeClass`). */
  readonly pascal: string;
  /** Without dashes, for the CRD's plural and singular: `mycloud`. */
  readonly compact: string;
}

/** At most this long, so every generated line stays within the formatter's width. */
export const MaxProviderNameLength = 24;

/**
 * The spellings of a provider name, or an Error saying what a name must be: a lower-case
 * letter, then letters, digits and single dashes, ending in a letter or digit, at most
 * MaxProviderNameLength characters (it becomes a label value, a URL scheme and a CRD name).
 */
export function providerNames(name: string): ProviderNames {
  if (!/^[a-z](-?[a-z0-9])*$/.test(name) || name.length > MaxProviderNameLength) {
    throw new Error(
      `provider name ${JSON.stringify(name)}: use a lower-case letter, then letters, digits and single dashes, at most ${MaxProviderNameLength} characters (e.g. mycloud, my-cloud)`,
    );
  }
  const pascal = name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return { name, pascal, compact: name.replaceAll('-', '') };
}
