import type { Pod } from '../../../apis/kubernetes/pod.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import { jsonEqual } from '../../../kube/json.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { KubeObject } from '../../../kube/object.js';
import { Pods, ReplicaSets } from '../../../kube/resource-types.js';
import { ObjectCache } from '../object-cache.js';
import { ReconcileQueue } from '../reconcile-queue.js';
import {
  activeCounts,
  CONTROLLER_MANAGER,
  controllerRef,
  createPod,
  deletePod,
  isActive,
  isReady,
  ownerKey,
  type PodTemplate,
  podCache,
  podFromTemplate,
  podsOf,
  splitKey,
  watchInto,
} from './common.js';

/** An apps/v1 ReplicaSet, as far as its controller reads and writes it. */
export interface ReplicaSet extends KubeObject {
  spec: { replicas?: number; selector?: unknown; template: PodTemplate; minReadySeconds?: number };
  status?: {
    replicas?: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
  };
}

/** Phase order for choosing which pod to delete first: not yet running goes first. */
const PHASE_RANK: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * kube-controller-manager's order for scale-down victims: unbound before bound, Pending before
 * Unknown before Running, not ready before ready, newer before older; then by name, descending,
 * so the order is total.
 */
export function compareForDeletion(a: Pod, b: Pod): number {
  const bound = (p: Pod) => ((p.spec.nodeName ?? '') === '' ? 0 : 1);
  const phase = (p: Pod) => PHASE_RANK[p.status?.phase ?? 'Pending'] ?? 0;
  const ready = (p: Pod) => (isReady(p) ? 1 : 0);
  const created = (p: Pod) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return (
    bound(a) - bound(b) ||
    phase(a) - phase(b) ||
    ready(a) - ready(b) ||
    created(b) - created(a) ||
    ((b.metadata.name ?? '') < (a.metadata.name ?? '')
      ? -1
      : (b.metadata.name ?? '') > (a.metadata.name ?? '')
        ? 1
        : 0)
  );
}

/**
 * The ReplicaSet controller as a MemoryCluster plug-in: keeps `spec.replicas` active pods (not
 * finished, not being deleted) stamped from the template with a controller reference —
 * creating replacements for evicted, deleted or failed pods at once (upstream's slow-start
 * batching is not simulated) and deleting surplus ones in upstream's victim order — and keeps
 * `status` (replicas, readyReplicas, availableReplicas with minReadySeconds 0 only) current.
 * Orphan adoption by selector is not simulated: pods belong to a ReplicaSet by owner reference.
 */
export class ReplicaSetController implements MemoryClusterPlugin {
  readonly name = 'replicaset-controller';

  start(cluster: MemoryCluster): () => void {
    const sets = new ObjectCache<ReplicaSet>();
    const pods = podCache();
    const queue = new ReconcileQueue((key) => reconcile(cluster, key, sets, pods));
    const watches = [
      watchInto(cluster, ReplicaSets, sets, queue, (prev, cur) => [ownKey(cur ?? prev)]),
      watchInto(cluster, Pods, pods, queue, (prev, cur) => [
        ownerKey(prev, 'ReplicaSet'),
        ownerKey(cur, 'ReplicaSet'),
      ]),
    ];
    return () => {
      for (const w of watches) w.stop();
    };
  }
}

function ownKey(obj: KubeObject | undefined): string | undefined {
  return obj === undefined ? undefined : `${obj.metadata.namespace ?? 'default'}/${obj.metadata.name ?? ''}`;
}

async function reconcile(
  cluster: MemoryCluster,
  key: string,
  sets: ObjectCache<ReplicaSet>,
  pods: ObjectCache<Pod>,
): Promise<void> {
  const rs = sets.get(key);
  if (rs === undefined || rs.metadata.deletionTimestamp !== undefined) return;
  // Every pod event queues its set, so the reconcile reads the cache's running counts; the
  // pods themselves are listed only to pick scale-down victims.
  const { active } = activeCounts(pods, rs);
  const want = rs.spec.replicas ?? 1;
  if (active < want) {
    const ref = controllerRef(rs, 'apps/v1', 'ReplicaSet');
    for (let i = active; i < want; i++) {
      await createPod(cluster, pods, podFromTemplate(rs.spec.template, rs, ref));
    }
  } else if (active > want) {
    const victims = podsOf(pods, rs)
      .filter(isActive)
      .sort(compareForDeletion)
      .slice(0, active - want);
    for (const pod of victims) await deletePod(cluster, pods, pod);
  }
  await writeStatus(cluster, key, sets, pods);
}

async function writeStatus(
  cluster: MemoryCluster,
  key: string,
  sets: ObjectCache<ReplicaSet>,
  pods: ObjectCache<Pod>,
): Promise<void> {
  const rs = sets.get(key);
  if (rs === undefined) return;
  const { active, ready } = activeCounts(pods, rs);
  const status = {
    replicas: active,
    fullyLabeledReplicas: active,
    readyReplicas: ready,
    availableReplicas: ready,
    observedGeneration: rs.metadata.generation ?? 0,
  };
  if (jsonEqual(status, rs.status ?? {})) return;
  try {
    const updated = await cluster.patchStatus<ReplicaSet>(
      ReplicaSets,
      splitKey(key),
      { status },
      {
        resourceVersion: rs.metadata.resourceVersion ?? '',
        fieldManager: CONTROLLER_MANAGER,
      },
    );
    sets.observe(updated);
  } catch (err) {
    // A newer version is on its way through the watch, which reconciles again.
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
