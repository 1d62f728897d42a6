import type { Manifest } from '@nodewright/core/manifests';
import type { ProviderPlugin } from '@nodewright/core/plugin';

/** `group/Kind` of a NodeClass kind -> the names of the catalogs its provider ships. */
export type NodeClassCatalogs = ReadonlyMap<string, readonly string[]>;

/** Which catalogs each loaded provider's NodeClass kinds stand for. */
export function nodeClassCatalogsOf(providers: readonly ProviderPlugin[]): NodeClassCatalogs {
  const out = new Map<string, string[]>();
  for (const provider of providers) {
    const catalogs = (provider.catalogs ?? []).map((c) => c.name);
    if (catalogs.length === 0) continue;
    for (const kind of provider.kinds) out.set(`${kind.apiVersion.split('/')[0]}/${kind.kind}`, catalogs);
  }
  return out;
}

/**
 * The catalogs to use when none is given for a live cluster: those of the providers whose
 * NodeClass kinds the NodePools reference, with a note saying so (or why there are none).
 */
export function defaultCatalogs(
  manifests: readonly Manifest[],
  catalogs: NodeClassCatalogs,
): { names: string[]; notes: string[] } {
  const names = new Set<string>();
  const unknown = new Set<string>();
  for (const m of manifests) {
    if (m.apiVersion !== 'karpenter.sh/v1' || m.kind !== 'NodePool') continue;
    const ref = nodeClassRefOf(m.object);
    if (ref === undefined) continue;
    const found = catalogs.get(ref);
    if (found === undefined) unknown.add(ref);
    else for (const name of found) names.add(name);
  }
  const notes: string[] = [];
  if (names.size > 0)
    notes.push(
      `no --catalog given: using the ${[...names].sort().join(', ')} catalog${names.size === 1 ? '' : 's'}, of the NodePools' NodeClass provider${names.size === 1 ? '' : 's'}`,
    );
  if (unknown.size > 0)
    notes.push(
      `no catalog is installed for NodeClass kind${unknown.size === 1 ? '' : 's'} ${[...unknown].sort().join(', ')}: give one with --catalog NAME or FILE`,
    );
  return { names: [...names].sort(), notes };
}

function nodeClassRefOf(object: Readonly<Record<string, unknown>>): string | undefined {
  const spec = object.spec as {
    template?: { spec?: { nodeClassRef?: { group?: unknown; kind?: unknown } } };
  };
  const ref = spec?.template?.spec?.nodeClassRef;
  return typeof ref?.group === 'string' && typeof ref.kind === 'string'
    ? `${ref.group}/${ref.kind}`
    : undefined;
}
