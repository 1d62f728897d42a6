import type { LabelSelector } from '../../../apis/kubernetes/label-selector.js';
import type { IntOrPercent } from '../../../apis/kubernetes/pod-disruption-budget.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../../kube/errors.js';
import { scaledValue } from '../../../kube/int-or-percent.js';
import { jsonEqual } from '../../../kube/json.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { KubeObject } from '../../../kube/object.js';
import { Deployments, ReplicaSets } from '../../../kube/resource-types.js';
import { cacheKey, ObjectCache } from '../object-cache.js';
import { ReconcileQueue } from '../reconcile-queue.js';
import {
  CONTROLLER_MANAGER,
  controllerRef,
  isControlledBy,
  ownerKey,
  type PodTemplate,
  splitKey,
  templateHash,
  watchInto,
} from './common.js';
import type { ReplicaSet } from './replicaset-controller.js';

/** The label tying a ReplicaSet and its pods to one revision of a Deployment's template. */
export const PodTemplateHashLabel = 'pod-template-hash';
/** The annotation numbering a Deployment's revisions on its ReplicaSets. */
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';

/** An apps/v1 Deployment, as far as its controller reads and writes it. */
export interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplate;
    strategy?: {
      type?: 'RollingUpdate' | 'Recreate';
      rollingUpdate?: { maxSurge?: IntOrPercent; maxUnavailable?: IntOrPercent };
    };
    paused?: boolean;
  };
  status?: Record<string, unknown>;
}

/** maxSurge and maxUnavailable resolved against the replica count, as upstream resolves them. */
export function rollingLimits(deployment: Deployment): { maxSurge: number; maxUnavailable: number } {
  const replicas = deployment.spec.replicas ?? 1;
  const rolling = deployment.spec.strategy?.rollingUpdate;
  const maxSurge = scaledValue(rolling?.maxSurge ?? '25%', replicas, true);
  const maxUnavailable = scaledValue(rolling?.maxUnavailable ?? '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) return { maxSurge: 0, maxUnavailable: 1 };
  return { maxSurge, maxUnavailable };
}

/** How many replicas each ReplicaSet should have now, by ReplicaSet name. */
export interface ScalePlan {
  readonly newReplicas: number;
  readonly old: ReadonlyMap<string, number>;
}

/**
 * One step of a rollout (pure): the current template's ReplicaSet and the older ones, with
 * their specified and available replicas.
 * - No old replicas left: the new set has `replicas`.
 * - Recreate: old sets go to 0 first; the new one scales up once no old pod remains.
 * - RollingUpdate: the new set grows while the total stays within replicas + maxSurge; old
 *   sets (oldest first) shrink while at least replicas - maxUnavailable pods stay available,
 *   not counting the new set's unavailable pods.
 */
export function planRollout(
  deployment: Deployment,
  current: { readonly replicas: number; readonly available: number },
  old: readonly {
    readonly name: string;
    readonly replicas: number;
    readonly available: number;
    readonly pods: number;
  }[],
): ScalePlan {
  const replicas = deployment.spec.replicas ?? 1;
  const oldTotal = old.reduce((n, rs) => n + rs.replicas, 0);
  if (oldTotal === 0) {
    return { newReplicas: replicas, old: new Map(old.map((rs) => [rs.name, 0])) };
  }
  if (deployment.spec.strategy?.type === 'Recreate') {
    const oldPods = old.reduce((n, rs) => n + rs.pods, 0);
    return {
      newReplicas: oldPods === 0 ? replicas : current.replicas,
      old: new Map(old.map((rs) => [rs.name, 0])),
    };
  }
  const { maxSurge, maxUnavailable } = rollingLimits(deployment);
  let newReplicas = current.replicas;
  const total = newReplicas + oldTotal;
  if (newReplicas < replicas && total < replicas + maxSurge) {
    newReplicas = Math.min(replicas, newReplicas + (replicas + maxSurge - total));
  }
  const minAvailable = replicas - maxUnavailable;
  const newUnavailable = Math.max(0, newReplicas - current.available);
  let removable = Math.max(0, newReplicas + oldTotal - minAvailable - newUnavailable);
  const available = current.available + old.reduce((n, rs) => n + rs.available, 0);
  // Unavailable old pods may always go; available ones only down to the floor.
  const plan = new Map<string, number>();
  for (const rs of old) {
    const unhealthy = Math.max(0, rs.replicas - rs.available);
    const cut = Math.min(unhealthy, removable);
    plan.set(rs.name, rs.replicas - cut);
    removable -= cut;
  }
  let spare = Math.max(0, available - minAvailable);
  for (const rs of old) {
    const cut = Math.min(plan.get(rs.name)!, removable, spare);
    plan.set(rs.name, plan.get(rs.name)! - cut);
    removable -= cut;
    spare -= cut;
  }
  return { newReplicas, old: plan };
}

/**
 * The Deployment controller as a MemoryCluster plug-in: one ReplicaSet per template revision
 * (`<name>-<pod-template-hash>`, labelled and selected by the hash), scaled by `planRollout`
 * (RollingUpdate with maxSurge/maxUnavailable, or Recreate), and the Deployment's status.
 * Not simulated: minReadySeconds, progress deadlines, paused rollouts beyond not scaling,
 * proportional scaling of several live ReplicaSets, revision history limits, rollbacks.
 */
export class DeploymentController implements MemoryClusterPlugin {
  readonly name = 'deployment-controller';

  start(cluster: MemoryCluster): () => void {
    const deployments = new ObjectCache<Deployment>();
    const sets = new ObjectCache<ReplicaSet>();
    const queue = new ReconcileQueue((key) => reconcile(cluster, key, deployments, sets));
    const watches = [
      watchInto(cluster, Deployments, deployments, queue, (prev, cur) => [cacheKey((cur ?? prev)!)]),
      watchInto(cluster, ReplicaSets, sets, queue, (prev, cur) => [
        ownerKey(prev, 'Deployment'),
        ownerKey(cur, 'Deployment'),
      ]),
    ];
    return () => {
      for (const w of watches) w.stop();
    };
  }
}

function created(obj: KubeObject): number {
  return Date.parse(obj.metadata.creationTimestamp ?? '') || 0;
}

async function reconcile(
  cluster: MemoryCluster,
  key: string,
  deployments: ObjectCache<Deployment>,
  sets: ObjectCache<ReplicaSet>,
): Promise<void> {
  const d = deployments.get(key);
  if (d === undefined || d.metadata.deletionTimestamp !== undefined) return;
  const hash = templateHash(d.spec.template);
  const owned = sets
    .list()
    .filter((rs) => isControlledBy(rs, d))
    .sort((a, b) => created(a) - created(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  let current = owned.find((rs) => rs.metadata.labels?.[PodTemplateHashLabel] === hash);
  const old = owned.filter((rs) => rs !== current);
  if (current === undefined) {
    current = await createReplicaSet(cluster, d, hash, owned, sets);
    if (current === undefined) return;
  }
  if (d.spec.paused !== true) {
    const plan = planRollout(
      d,
      { replicas: current.spec.replicas ?? 0, available: current.status?.availableReplicas ?? 0 },
      old.map((rs) => ({
        name: rs.metadata.name ?? '',
        replicas: rs.spec.replicas ?? 0,
        available: rs.status?.availableReplicas ?? 0,
        pods: rs.status?.replicas ?? 0,
      })),
    );
    await scale(cluster, current, plan.newReplicas, sets);
    for (const rs of old) await scale(cluster, rs, plan.old.get(rs.metadata.name ?? '') ?? 0, sets);
  }
  await writeStatus(cluster, key, deployments, sets, hash);
}

async function createReplicaSet(
  cluster: MemoryCluster,
  d: Deployment,
  hash: string,
  owned: readonly ReplicaSet[],
  sets: ObjectCache<ReplicaSet>,
): Promise<ReplicaSet | undefined> {
  const revision =
    1 +
    owned.reduce((n, rs) => Math.max(n, Number(rs.metadata.annotations?.[RevisionAnnotation] ?? 0) || 0), 0);
  const labels = { ...(d.spec.template.metadata?.labels ?? {}), [PodTemplateHashLabel]: hash };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace ?? 'default',
      labels,
      annotations: { [RevisionAnnotation]: String(revision) },
      ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: {
      replicas: 0,
      selector: {
        ...d.spec.selector,
        matchLabels: { ...(d.spec.selector.matchLabels ?? {}), [PodTemplateHashLabel]: hash },
      },
      template: {
        ...d.spec.template,
        metadata: { ...(d.spec.template.metadata ?? {}), labels },
      },
    },
  };
  try {
    const createdRs = await cluster.create<ReplicaSet>(ReplicaSets, rs, { fieldManager: CONTROLLER_MANAGER });
    sets.observe(createdRs);
    return createdRs;
  } catch (err) {
    // Created by an earlier reconcile whose result the cache has not seen yet: its event follows.
    if (isAlreadyExists(err)) return undefined;
    throw err;
  }
}

async function scale(
  cluster: MemoryCluster,
  rs: ReplicaSet,
  replicas: number,
  sets: ObjectCache<ReplicaSet>,
): Promise<void> {
  if ((rs.spec.replicas ?? 0) === replicas) return;
  try {
    const updated = await cluster.patch<ReplicaSet>(
      ReplicaSets,
      splitKey(cacheKey(rs)),
      { spec: { replicas } },
      { resourceVersion: rs.metadata.resourceVersion ?? '', fieldManager: CONTROLLER_MANAGER },
    );
    sets.observe(updated);
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}

async function writeStatus(
  cluster: MemoryCluster,
  key: string,
  deployments: ObjectCache<Deployment>,
  sets: ObjectCache<ReplicaSet>,
  hash: string,
): Promise<void> {
  const d = deployments.get(key);
  if (d === undefined) return;
  const owned = sets.list().filter((rs) => isControlledBy(rs, d));
  const sum = (f: (rs: ReplicaSet) => number | undefined) => owned.reduce((n, rs) => n + (f(rs) ?? 0), 0);
  const replicas = sum((rs) => rs.status?.replicas);
  const available = sum((rs) => rs.status?.availableReplicas);
  const wanted = d.spec.replicas ?? 1;
  const status = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas,
    updatedReplicas:
      owned.find((rs) => rs.metadata.labels?.[PodTemplateHashLabel] === hash)?.status?.replicas ?? 0,
    readyReplicas: sum((rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, wanted - available),
  };
  if (jsonEqual(status, d.status ?? {})) return;
  try {
    deployments.observe(
      await cluster.patchStatus<Deployment>(
        Deployments,
        splitKey(key),
        { status },
        {
          resourceVersion: d.metadata.resourceVersion ?? '',
          fieldManager: CONTROLLER_MANAGER,
        },
      ),
    );
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
