import type { LabelSelector } from '../../../apis/kubernetes/label-selector.js';
import type { Node } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { Toleration } from '../../../apis/kubernetes/taint.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import { jsonEqual } from '../../../kube/json.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { KubeObject } from '../../../kube/object.js';
import { DaemonSets, Nodes, Pods } from '../../../kube/resource-types.js';
import { nodeAffinityMatcher, untoleratedSchedulingTaint } from '../binder/filters.js';
import { NodeInfo } from '../binder/node-info.js';
import { cacheKey, ObjectCache } from '../object-cache.js';
import { ReconcileQueue } from '../reconcile-queue.js';
import {
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
  templateHash,
  watchInto,
} from './common.js';

/** The label carrying the template revision a DaemonSet pod was made from. */
export const ControllerRevisionHashLabel = 'controller-revision-hash';

/** An apps/v1 DaemonSet, as far as its controller reads and writes it. */
export interface DaemonSetObject extends KubeObject {
  spec: {
    selector: LabelSelector;
    template: PodTemplate;
    updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { maxUnavailable?: number } };
  };
  status?: Record<string, unknown>;
}

/**
 * The tolerations the DaemonSet controller adds to every daemon pod, so it runs on nodes that
 * are not ready, unreachable, under pressure or cordoned (and, with hostNetwork, without a
 * network yet).
 */
export function daemonPodTolerations(hostNetwork: boolean): Toleration[] {
  const exists = (key: string, effect: 'NoSchedule' | 'NoExecute'): Toleration => ({
    key,
    operator: 'Exists',
    effect,
  });
  return [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(hostNetwork ? [exists('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

/** The template's tolerations plus the daemon ones it lacks. */
function withDaemonTolerations(template: PodTemplate): Toleration[] {
  const own = template.spec.tolerations ?? [];
  const added = daemonPodTolerations(template.spec.hostNetwork === true).filter(
    (t) => !own.some((o) => o.key === t.key && o.effect === t.effect),
  );
  return [...own, ...added];
}

/**
 * Whether a DaemonSet's pod belongs on a node (upstream's NodeShouldRunDaemonPod): the template's
 * nodeSelector and required node affinity match, and its tolerations (daemon ones included)
 * tolerate the node's NoSchedule and NoExecute taints.
 */
export function shouldRunOn(template: PodTemplate, node: NodeInfo): boolean {
  if (node.node === undefined || node.node.metadata.deletionTimestamp !== undefined) return false;
  if (!nodeAffinityMatcher(template.spec)(node)) return false;
  return (
    untoleratedSchedulingTaint(node.node.spec?.taints ?? [], withDaemonTolerations(template)) === undefined
  );
}

/**
 * The DaemonSet controller as a MemoryCluster plug-in: one pod per node the DaemonSet should run
 * on, created bound to it (`spec.nodeName`, plus upstream's `metadata.name` node affinity and
 * daemon tolerations) so no scheduler is involved; pods on nodes it should no longer run on,
 * surplus and failed pods are deleted. A template change replaces pods one node at a time
 * (RollingUpdate, maxUnavailable 1) or on deletion (OnDelete). Status counts are kept.
 */
export class DaemonSetController implements MemoryClusterPlugin {
  readonly name = 'daemonset-controller';

  start(cluster: MemoryCluster): () => void {
    const sets = new ObjectCache<DaemonSetObject>();
    const nodes = new ObjectCache<Node>();
    const pods = podCache();
    const queue = new ReconcileQueue((key) => reconcile(cluster, key, sets, nodes, pods));
    const watches = [
      watchInto(cluster, DaemonSets, sets, queue, (prev, cur) => [cacheKey((cur ?? prev)!)]),
      watchInto(cluster, Nodes, nodes, queue, () => sets.list().map(cacheKey)),
      watchInto(cluster, Pods, pods, queue, (prev, cur) => [
        ownerKey(prev, 'DaemonSet'),
        ownerKey(cur, 'DaemonSet'),
      ]),
    ];
    return () => {
      for (const w of watches) w.stop();
    };
  }
}

async function reconcile(
  cluster: MemoryCluster,
  key: string,
  sets: ObjectCache<DaemonSetObject>,
  nodes: ObjectCache<Node>,
  pods: ObjectCache<Pod>,
): Promise<void> {
  const ds = sets.get(key);
  if (ds === undefined || ds.metadata.deletionTimestamp !== undefined) return;
  const hash = templateHash(ds.spec.template);
  const owned = podsOf(pods, ds);
  const byNode = new Map<string, Pod[]>();
  for (const pod of owned) {
    const name = pod.spec.nodeName ?? '';
    byNode.set(name, [...(byNode.get(name) ?? []), pod]);
  }
  const infos = nodes.list().map((n) => {
    const info = new NodeInfo(n.metadata.name);
    info.setNode(n);
    return info;
  });
  const eligible = new Set(infos.filter((n) => shouldRunOn(ds.spec.template, n)).map((n) => n.name));
  const outdated: Pod[] = [];
  let unavailable = 0;
  for (const info of infos) {
    const here = byNode.get(info.name) ?? [];
    const failed = here.filter(
      (p) => p.status?.phase === 'Failed' && p.metadata.deletionTimestamp === undefined,
    );
    for (const pod of failed) await deletePod(cluster, pods, pod);
    const live = here.filter(isActive);
    if (!eligible.has(info.name)) {
      for (const pod of live) await deletePod(cluster, pods, pod);
      continue;
    }
    if (live.length === 0) {
      unavailable++;
      if (!here.some((p) => p.metadata.deletionTimestamp !== undefined)) {
        await createPod(cluster, pods, daemonPod(ds, hash, info.name));
      }
      continue;
    }
    // Keep the oldest; a surplus appears only after races upstream also resolves this way.
    for (const pod of live.slice(1)) await deletePod(cluster, pods, pod);
    const kept = live[0]!;
    if (!isReady(kept)) unavailable++;
    if (kept.metadata.labels?.[ControllerRevisionHashLabel] !== hash) outdated.push(kept);
  }
  if ((ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    const maxUnavailable = ds.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
    for (const pod of outdated) {
      if (unavailable >= maxUnavailable) break;
      await deletePod(cluster, pods, pod);
      unavailable++;
    }
  }
  await writeStatus(cluster, key, sets, pods, eligible, hash);
}

function daemonPod(ds: DaemonSetObject, hash: string, nodeName: string): Pod {
  const template = ds.spec.template;
  const nodeTerm = {
    matchFields: [{ key: 'metadata.name' as const, operator: 'In' as const, values: [nodeName] }],
  };
  return podFromTemplate(template, ds, controllerRef(ds, 'apps/v1', 'DaemonSet'), {
    labels: { [ControllerRevisionHashLabel]: hash },
    spec: {
      nodeName,
      tolerations: withDaemonTolerations(template),
      affinity: {
        ...(template.spec.affinity ?? {}),
        nodeAffinity: {
          ...(template.spec.affinity?.nodeAffinity ?? {}),
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [nodeTerm] },
        },
      },
    },
  });
}

async function writeStatus(
  cluster: MemoryCluster,
  key: string,
  sets: ObjectCache<DaemonSetObject>,
  pods: ObjectCache<Pod>,
  eligible: ReadonlySet<string>,
  hash: string,
): Promise<void> {
  const ds = sets.get(key);
  if (ds === undefined) return;
  const live = podsOf(pods, ds).filter(isActive);
  const scheduled = new Set(
    live.filter((p) => eligible.has(p.spec.nodeName ?? '')).map((p) => p.spec.nodeName),
  );
  const ready = live.filter((p) => eligible.has(p.spec.nodeName ?? '') && isReady(p)).length;
  const status = {
    desiredNumberScheduled: eligible.size,
    currentNumberScheduled: scheduled.size,
    numberMisscheduled: live.filter((p) => !eligible.has(p.spec.nodeName ?? '')).length,
    numberReady: ready,
    numberAvailable: ready,
    numberUnavailable: Math.max(0, eligible.size - ready),
    updatedNumberScheduled: live.filter((p) => p.metadata.labels?.[ControllerRevisionHashLabel] === hash)
      .length,
    observedGeneration: ds.metadata.generation ?? 0,
  };
  if (jsonEqual(status, ds.status ?? {})) return;
  try {
    sets.observe(
      await cluster.patchStatus<DaemonSetObject>(
        DaemonSets,
        splitKey(key),
        { status },
        {
          resourceVersion: ds.metadata.resourceVersion ?? '',
          fieldManager: CONTROLLER_MANAGER,
        },
      ),
    );
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
