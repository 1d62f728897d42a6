import { type NodePool, nodePoolKind, type PodDisruptionBudget } from '@nodewright/core/apis';
import { type DisruptionSnapshot, disruptionSnapshotOf } from '@nodewright/core/disruption';
import type { ParsedManifest } from '@nodewright/core/manifests';
import { asCatalog, catalogInstanceTypes, type SourcedCatalog } from './catalogs.js';
import type { ClusterRead } from './read-cluster.js';

const kindOf = (p: ParsedManifest) => `${p.manifest.apiVersion}/${p.manifest.kind}`;

/**
 * What one disruption pass looks at, from what a command read. Nodes of NodePools that cannot
 * launch are still judged and priced, so disruption takes every NodePool and gives each the
 * instance types of every catalog.
 */
export function disruptionInput(read: ClusterRead): DisruptionSnapshot {
  const { snapshot, parsed } = read;
  const sourced: SourcedCatalog[] = [...read.catalogs];
  for (const p of parsed) {
    const catalog = asCatalog(p);
    if (catalog !== undefined)
      sourced.push({ catalog, file: p.manifest.source.file, source: p.manifest.source });
  }
  const types = catalogInstanceTypes(sourced).instanceTypes;
  const nodePools = parsed
    .filter((p) => kindOf(p) === `${nodePoolKind.apiVersion}/${nodePoolKind.kind}`)
    .map((p) => p.value as NodePool);
  const pdbs = parsed
    .filter((p) => kindOf(p) === 'policy/v1/PodDisruptionBudget')
    .map((p) => p.value as PodDisruptionBudget);
  return disruptionSnapshotOf(snapshot.input, {
    nodePools,
    podDisruptionBudgets: pdbs,
    instanceTypes: new Map(nodePools.map((p) => [p.metadata.name ?? '', types])),
  });
}
