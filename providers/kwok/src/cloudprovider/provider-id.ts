/** The scheme of KWOK providerIDs: `kwok://<node name>`. */
export const KwokProviderIdPrefix = 'kwok://';

export function kwokProviderID(nodeName: string): string {
  return `${KwokProviderIdPrefix}${nodeName}`;
}

/** The Node name inside a KWOK providerID, or undefined when it is not one. */
export function nodeNameOf(providerID: string): string | undefined {
  if (!providerID.startsWith(KwokProviderIdPrefix)) return undefined;
  const name = providerID.slice(KwokProviderIdPrefix.length);
  return name === '' ? undefined : name;
}
