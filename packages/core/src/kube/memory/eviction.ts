import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import {
  approvalHolds,
  budgetStatusFromCounts,
  type ControllerScale,
  type DisruptionBudgetStatus,
  expectedScale,
  type PodDisruptionBudgetLike,
} from '../disruption-budget.js';
import { InternalError, notFound, TooManyRequestsError } from '../errors.js';
import { cloneJson } from '../json.js';
import { controllerOf, DEFAULT_NAMESPACE, formatTime, type KubeObject, type ObjectKey } from '../object.js';
import { isPodReady, isPodTerminal, type PodLike } from '../pod.js';
import type { DeleteOptions, EvictOptions } from '../port.js';
import { typeKey } from '../resource-type.js';
import { Deployments, PodDisruptionBudgets, Pods, ReplicaSets } from '../resource-types.js';
import type { BudgetSelection } from './budget-selections.js';
import type { ClusterInternals } from './internals.js';
import { storeKey } from './object-store.js';
import { checkPreconditions } from './preconditions.js';

const POD_KEY = typeKey(Pods);
const PDB_KEY = typeKey(PodDisruptionBudgets);
const RS_KEY = typeKey(ReplicaSets);
const DEPLOYMENT_KEY = typeKey(Deployments);

/** The message and reason the Eviction API refuses with when a budget allows no disruption. */
export const EVICTION_BLOCKED_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** The pods of a PDB's namespace its selector matches (a missing selector matches none), in store order. */
export function podsSelectedBy(cluster: ClusterInternals, pdb: PodDisruptionBudgetLike): PodLike[] {
  return [...selectionOf(cluster, pdb).pods.values()];
}

function selectionOf(cluster: ClusterInternals, pdb: PodDisruptionBudgetLike): BudgetSelection {
  const selector = pdb.spec?.selector;
  return cluster.budgetSelections.of(pdb.metadata.namespace, JSON.stringify(selector ?? null), selector);
}

/**
 * The replicas the controller of a pod asks for, found the way the disruption controller
 * finds it: a ReplicaSet owned by a Deployment counts the Deployment's replicas; otherwise
 * any stored controller with a numeric `spec.replicas` (ReplicaSet, StatefulSet,
 * ReplicationController, custom kinds with a scale) counts its own. Unset replicas mean 1.
 */
export function controllerScale(cluster: ClusterInternals, pod: PodLike): ControllerScale {
  const ref = controllerOf(pod);
  if (ref === undefined) return 'unmanaged';
  const namespace = pod.metadata.namespace;
  const owner = resolve(cluster, ref.apiVersion, ref.kind, ref.name, ref.uid, namespace);
  if (owner === undefined) return undefined;
  if (typeKey({ apiVersion: owner.apiVersion ?? '', kind: owner.kind ?? '' }) === RS_KEY) {
    const rsController = controllerOf(owner);
    if (rsController !== undefined && rsController.kind === 'Deployment') {
      const deployment = resolve(
        cluster,
        rsController.apiVersion,
        'Deployment',
        rsController.name,
        rsController.uid,
        namespace,
      );
      if (
        deployment === undefined ||
        typeKey({ apiVersion: deployment.apiVersion ?? '', kind: 'Deployment' }) !== DEPLOYMENT_KEY
      ) {
        return undefined;
      }
      return { uid: deployment.metadata.uid as string, replicas: replicasOf(deployment) ?? 1 };
    }
  }
  const replicas = replicasOf(owner);
  if (replicas === undefined && !hasReplicasField(owner)) return undefined;
  return { uid: owner.metadata.uid as string, replicas: replicas ?? 1 };
}

function resolve(
  cluster: ClusterInternals,
  apiVersion: string,
  kind: string,
  name: string,
  uid: string | undefined,
  namespace: string | undefined,
): KubeObject | undefined {
  if (uid === undefined) return undefined;
  const policy = cluster.kinds.lookupGroupKind(apiVersion, kind);
  if (policy === undefined) return undefined;
  const obj = cluster.store.get(
    typeKey(policy.type),
    storeKey(policy.type.namespaced ? namespace : undefined, name),
  );
  return obj?.metadata.uid === uid ? obj : undefined;
}

function replicasOf(obj: KubeObject): number | undefined {
  const replicas = (obj as { spec?: { replicas?: unknown } }).spec?.replicas;
  return typeof replicas === 'number' ? replicas : undefined;
}

/** Kinds with a scale: the built-in workload controllers always have one (replicas default 1). */
function hasReplicasField(obj: KubeObject): boolean {
  const kind = obj.kind ?? '';
  return ['ReplicaSet', 'StatefulSet', 'ReplicationController', 'Deployment'].includes(kind);
}

/**
 * A PDB's status computed now from the stored pods, as an instantly reacting disruption
 * controller would, from the counts its selection keeps: the work is per controller and per
 * approved eviction, not per pod.
 */
export function disruptionStatusOf(
  cluster: ClusterInternals,
  pdb: PodDisruptionBudgetLike,
): DisruptionBudgetStatus {
  const selection = selectionOf(cluster, pdb);
  const facts = cluster.podFacts;
  const now = cluster.clock.now();
  let healthy = selection.readyLive;
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const pod = selection.pods.get(name);
    if (pod === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
    if (approvalHolds(at, now) && facts.ready(pod)) healthy--;
  }
  // Found once per controller, not once per pod: a budget's pods mostly share a few.
  const scales = new Map<string, ControllerScale>();
  const scaleOf = (pod: PodLike): ControllerScale => {
    const key = facts.controllerKey(pod);
    if (key === undefined) return controllerScale(cluster, pod);
    if (!scales.has(key)) scales.set(key, controllerScale(cluster, pod));
    return scales.get(key);
  };
  const controllersScale = (): number => {
    try {
      return expectedScale(
        [...selection.controllers.values()].map((share) => share.pod),
        scaleOf,
      );
    } catch {
      // The error names the first pod, in store order, whose controller is missing.
      return expectedScale(selection.pods.values(), scaleOf);
    }
  };
  return budgetStatusFromCounts(pdb, selection.pods.size, healthy, controllersScale);
}

/**
 * The policy/v1 Eviction subresource. Terminal, pending and already-deleting pods are deleted
 * without consulting budgets. Otherwise every PDB of the pod's namespace whose selector
 * matches is found: several -> 500; one that allows no disruption -> 429 (an unready pod
 * passes when the budget is healthy, or always under `unhealthyPodEvictionPolicy:
 * AlwaysAllow`); allowed -> the approval is recorded in the PDB's `status.disruptedPods`.
 * The pod then gets a `DisruptionTarget` condition and is deleted with `deleteOptions`.
 *
 * Simplified: the PDB's status is computed at the moment of the call instead of read from
 * what a disruption controller last wrote, so there is no "still being processed" 429.
 */
export function evictPod(cluster: ClusterInternals, key: ObjectKey, options: EvictOptions = {}): void {
  const namespace = key.namespace ?? DEFAULT_NAMESPACE;
  const podKey = storeKey(namespace, key.name);
  const pod = cluster.store.get(POD_KEY, podKey) as PodLike | undefined;
  if (pod === undefined) throw notFound(Pods, key.name);
  const deleteOptions = options.deleteOptions ?? {};

  const ignoresBudgets =
    isPodTerminal(pod) || pod.status?.phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
  if (!ignoresBudgets) {
    const pdbs = (cluster.store.all(PDB_KEY) as PodDisruptionBudgetLike[]).filter(
      (pdb) =>
        pdb.metadata.namespace === namespace && matchesLabelSelector(pdb.spec?.selector, pod.metadata.labels),
    );
    if (pdbs.length > 1) throw new InternalError(MULTIPLE_PDBS_MESSAGE);
    const pdb = pdbs[0];
    if (pdb !== undefined) checkBudget(cluster, pdb, pod);
  }
  checkPreconditions(Pods, pod, deleteOptions.preconditions);
  markDisruptionTarget(cluster, podKey);
  // The caller's resourceVersion was checked above; the condition just written moved it on.
  const { resourceVersion: _checked, ...rest } = deleteOptions.preconditions ?? {};
  const preconditions = rest.uid === undefined ? undefined : { uid: rest.uid };
  cluster.delete(
    Pods,
    { name: key.name, namespace },
    preconditions === undefined ? withoutPreconditions(deleteOptions) : { ...deleteOptions, preconditions },
  );
}

function withoutPreconditions(options: DeleteOptions): DeleteOptions {
  const { preconditions: _dropped, ...rest } = options;
  return rest;
}

function checkBudget(cluster: ClusterInternals, pdb: PodDisruptionBudgetLike, pod: PodLike): void {
  const status = disruptionStatusOf(cluster, pdb);
  if (!isPodReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return;
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return;
  }
  if (status.disruptionsAllowed <= 0) {
    throw new TooManyRequestsError(EVICTION_BLOCKED_MESSAGE, {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${pdb.metadata.name ?? ''} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
        },
      ],
      retryAfterSeconds: 0,
    });
  }
  const next = cloneJson(pdb);
  next.status = {
    ...next.status,
    disruptionsAllowed: status.disruptionsAllowed - 1,
    currentHealthy: status.currentHealthy,
    desiredHealthy: status.desiredHealthy,
    expectedPods: status.expectedPods,
    disruptedPods: {
      ...(next.status?.disruptedPods ?? {}),
      [pod.metadata.name ?? '']: formatTime(cluster.clock.now()),
    },
  };
  cluster.update(PodDisruptionBudgets, next, { subresource: 'status', fieldManager: 'kube-apiserver' });
}

/** The condition kube-apiserver adds before deleting an evicted pod. */
function markDisruptionTarget(cluster: ClusterInternals, podKey: string): void {
  const pod = cloneJson(cluster.store.get(POD_KEY, podKey) as PodLike);
  const conditions = pod.status?.conditions ?? [];
  const existing = conditions.find((c) => c.type === 'DisruptionTarget');
  const condition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
    lastTransitionTime:
      existing?.status === 'True' && 'lastTransitionTime' in existing
        ? (existing as { lastTransitionTime: string }).lastTransitionTime
        : formatTime(cluster.clock.now()),
  };
  pod.status = {
    ...pod.status,
    conditions: [...conditions.filter((c) => c.type !== 'DisruptionTarget'), condition],
  };
  cluster.update(Pods, pod, { subresource: 'status', fieldManager: 'kube-apiserver' });
}
