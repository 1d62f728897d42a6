import type { KindRegistry, NodePool } from '@nodewright/core/apis';
import { nodeClaimKind, nodePoolKind } from '@nodewright/core/apis';
import {
  DaemonSets,
  isForbidden,
  isNotFound,
  type KubeObject,
  Nodes,
  PersistentVolumeClaims,
  PersistentVolumes,
  PodDisruptionBudgets,
  Pods,
  type ResourceType,
  resourceTypeOf,
  StorageClasses,
  withoutManagedFields,
} from '@nodewright/core/kube';
import {
  type Manifest,
  type ManifestError,
  type ManifestSource,
  manifestOf,
} from '@nodewright/core/manifests';
import { describeReadFailure, rbacResource } from './describe-failure.js';
import type { LiveCluster } from './live-cluster.js';

/** The objects read from a cluster, as manifests for the files' parsing path, and what was left out. */
export interface LiveObjects {
  readonly manifests: Manifest[];
  /** Kinds not read (a CRD not installed, an optional permission missing), and what that costs. */
  readonly notes: string[];
  /** Objects the API server gave without an apiVersion or kind (never in practice). */
  readonly errors: ManifestError[];
  /** `<cluster CONTEXT>`: the file name errors about these objects carry. */
  readonly sourceName: string;
}

/** How a kind missing from the read changes the answer; undefined = the read fails without it. */
interface KindToRead {
  readonly type: ResourceType;
  /** Said when the kind is forbidden; undefined makes a refusal an error. */
  readonly ifForbidden?: string;
  /** Said when the kind is not served (its CRD is not installed); undefined makes that an error. */
  readonly ifNotServed?: string;
}

/** The name errors and notes give objects read from a cluster, in place of a file name. */
export function clusterSourceName(cluster: Pick<LiveCluster, 'name'>): string {
  return `<cluster ${cluster.name}>`;
}

const NoVolumes = 'volume topology of bound claims is not honoured';

/**
 * Lists, across all namespaces, what `schedule`, `disrupt` and `why` decide over: Pods, Nodes,
 * NodePools, NodeClaims, DaemonSets, PodDisruptionBudgets, PersistentVolumeClaims,
 * PersistentVolumes, StorageClasses, and the NodeClass kinds the NodePools reference (of the
 * providers in `registry`). list and get only, so `view` plus read access to nodes and the
 * karpenter.sh and NodeClass kinds is enough; PersistentVolumes, StorageClasses and NodeClasses,
 * which decisions can do without, are noted instead when refused.
 * @throws ClusterAccessError naming the verb and resource refused, or why the server cannot be read.
 */
export async function readLiveObjects(cluster: LiveCluster, registry: KindRegistry): Promise<LiveObjects> {
  const notes: string[] = [];
  const noCrds = 'the karpenter.sh CRDs are not installed (nodewright crds | kubectl apply -f -)';
  const listed = await inOrder(
    [
      { type: resourceTypeOf(nodePoolKind), ifNotServed: `no NodePools: ${noCrds}` },
      { type: resourceTypeOf(nodeClaimKind), ifNotServed: `no NodeClaims: ${noCrds}` },
      { type: Nodes },
      { type: Pods },
      { type: DaemonSets },
      { type: PodDisruptionBudgets },
      { type: PersistentVolumeClaims },
      { type: PersistentVolumes, ifForbidden: NoVolumes },
      { type: StorageClasses, ifForbidden: NoVolumes },
    ].map((kind) => () => listKind(cluster, kind, notes)),
  );
  const nodePools = listed[0]! as NodePool[];
  const nodeClasses = await inOrder(
    nodeClassTypes(nodePools, registry).map(
      (type) => () =>
        listKind(
          cluster,
          {
            type,
            ifForbidden: `NodeClasses of kind ${type.kind} were not read`,
            ifNotServed: `NodeClasses of kind ${type.kind} were not read: its CRD is not installed`,
          },
          notes,
        ),
    ),
  );
  const sourceName = clusterSourceName(cluster);
  const manifests: Manifest[] = [];
  const errors: ManifestError[] = [];
  for (const object of [...listed, ...nodeClasses].flat()) {
    // managedFields say nothing a decision reads and are most of a listed object's bytes.
    const made = manifestOf(
      withoutManagedFields(object) as unknown as Record<string, unknown>,
      liveSource(sourceName, manifests.length + 1),
    );
    if ('manifest' in made) manifests.push(made.manifest);
    else errors.push(...made.errors);
  }
  return { manifests, notes: [...new Set(notes)].sort(), errors, sourceName };
}

/**
 * Runs the reads together and, when some fail, throws the failure of the first in order, so a
 * user missing several permissions is told the same one each time.
 */
async function inOrder<T>(reads: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(reads.map((read) => read()));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

async function listKind(cluster: LiveCluster, kind: KindToRead, notes: string[]): Promise<KubeObject[]> {
  try {
    return (await cluster.list(kind.type)).items;
  } catch (error) {
    if (kind.ifForbidden !== undefined && isForbidden(error)) {
      notes.push(`cannot list ${rbacResource(kind.type)} (forbidden): ${kind.ifForbidden}`);
      return [];
    }
    if (kind.ifNotServed !== undefined && isNotFound(error)) {
      notes.push(kind.ifNotServed);
      return [];
    }
    throw describeReadFailure(error, 'list', kind.type, cluster);
  }
}

/** The NodeClass kinds the NodePools reference that a loaded provider defines, each once. */
function nodeClassTypes(nodePools: readonly NodePool[], registry: KindRegistry): ResourceType[] {
  const seen = new Map<string, ResourceType>();
  for (const pool of nodePools) {
    const ref = pool.spec?.template?.spec?.nodeClassRef;
    if (ref === undefined) continue;
    const definition = registry
      .all()
      .find((d) => d.kind === ref.kind && d.apiVersion.split('/')[0] === ref.group);
    if (definition !== undefined)
      seen.set(`${definition.apiVersion}/${definition.kind}`, resourceTypeOf(definition));
  }
  return [...seen.values()];
}

/** Objects from a cluster have no lines; errors about them name the cluster and the object. */
function liveSource(file: string, ordinal: number): ManifestSource {
  return { file, document: 0, ordinal, line: 0, lineOf: () => undefined };
}
