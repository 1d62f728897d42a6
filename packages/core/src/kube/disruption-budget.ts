import type { LabelSelector } from '../apis/kubernetes/label-selector.js';
import type { IntOrPercent } from '../apis/kubernetes/pod-disruption-budget.js';
import { scaledValue } from './int-or-percent.js';
import { type KubeObject, parseTime } from './object.js';
import { isPodReady, type PodLike } from './pod.js';

/** The policy/v1 PodDisruptionBudget fields disruption accounting reads. */
export interface PodDisruptionBudgetLike extends KubeObject {
  spec?: {
    minAvailable?: IntOrPercent;
    maxUnavailable?: IntOrPercent;
    selector?: LabelSelector | null;
    unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  };
  status?: {
    /** Pods the Eviction API approved for deletion, by name, with the approval time. */
    disruptedPods?: Record<string, string>;
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    expectedPods?: number;
    observedGeneration?: number;
  };
}

/**
 * The scale of the controller owning a pod: `{uid, replicas}` when found, `'unmanaged'` for
 * a pod without a controller reference, `undefined` when the controller cannot be found.
 */
export type ControllerScale = { readonly uid: string; readonly replicas: number } | 'unmanaged' | undefined;

/** What the disruption controller writes into a PDB's status. */
export interface DisruptionBudgetStatus {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
  /** Why the budget fails safe (allows 0), e.g. a pod whose controller is missing. */
  readonly error?: string;
}

/** How long an approved eviction keeps a still-present pod out of the healthy count. */
export const DISRUPTED_POD_TIMEOUT_MS = 2 * 60 * 1000;

/**
 * Computes a PDB's status over the pods it selects, as kube-controller-manager's disruption
 * controller does:
 * - integer minAvailable: desired = minAvailable, expected = number of selected pods;
 * - percentage minAvailable or any maxUnavailable: expected = sum of the owning controllers'
 *   replicas (pods without a controller count for nothing; a controller that cannot be found
 *   fails safe), percentages rounded up, desired = expected - maxUnavailable (not below 0);
 * - healthy = Ready, not deleting, not an eviction approved within the last two minutes;
 * - allowed = healthy - desired, and 0 whenever that is negative or nothing is expected.
 * `ready` is isPodReady, or a caller's memo of it.
 */
export function computeDisruptionBudgetStatus(
  pdb: PodDisruptionBudgetLike,
  selectedPods: readonly PodLike[],
  controllerScale: (pod: PodLike) => ControllerScale,
  now: number,
  ready: (pod: PodLike) => boolean = isPodReady,
): DisruptionBudgetStatus {
  return budgetStatusFromCounts(
    pdb,
    selectedPods.length,
    countHealthy(selectedPods, pdb.status?.disruptedPods ?? {}, now, ready),
    () => expectedScale(selectedPods, controllerScale),
  );
}

/**
 * The status arithmetic of computeDisruptionBudgetStatus from counts already made: how many pods
 * the budget selects, how many of them are healthy, and the sum of their controllers' replicas
 * (asked only when the spec needs it; it throws, naming a pod, when a controller cannot be found,
 * and the budget then fails safe).
 */
export function budgetStatusFromCounts(
  pdb: PodDisruptionBudgetLike,
  selected: number,
  currentHealthy: number,
  controllersScale: () => number,
): DisruptionBudgetStatus {
  const spec = pdb.spec ?? {};
  let expectedPods: number;
  let desiredHealthy: number;
  try {
    if (spec.maxUnavailable !== undefined) {
      expectedPods = controllersScale();
      desiredHealthy = Math.max(0, expectedPods - scaledValue(spec.maxUnavailable, expectedPods, true));
    } else if (typeof spec.minAvailable === 'number') {
      expectedPods = selected;
      desiredHealthy = spec.minAvailable;
    } else if (typeof spec.minAvailable === 'string') {
      expectedPods = controllersScale();
      desiredHealthy = scaledValue(spec.minAvailable, expectedPods, true);
    } else {
      // Neither set: validation forbids this; a budget that demands nothing.
      expectedPods = selected;
      desiredHealthy = 0;
    }
  } catch (err) {
    return {
      expectedPods: 0,
      currentHealthy,
      desiredHealthy: 0,
      disruptionsAllowed: 0,
      error: err instanceof Error ? err.message : String(err),
    };
  }
  const allowed = currentHealthy - desiredHealthy;
  return {
    expectedPods,
    currentHealthy,
    desiredHealthy,
    disruptionsAllowed: expectedPods <= 0 || allowed <= 0 ? 0 : allowed,
  };
}

/** Whether an eviction approved at `approvedAt` (RFC 3339) still keeps its pod out of the healthy count. */
export function approvalHolds(approvedAt: string, now: number): boolean {
  return parseTime(approvedAt) + DISRUPTED_POD_TIMEOUT_MS > now;
}

function countHealthy(
  pods: readonly PodLike[],
  disrupted: Record<string, string>,
  now: number,
  ready: (pod: PodLike) => boolean,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const approvedAt = disrupted[pod.metadata.name ?? ''];
    if (approvedAt !== undefined && approvalHolds(approvedAt, now)) continue;
    if (ready(pod)) healthy++;
  }
  return healthy;
}

/**
 * The sum of the replicas of the controllers of `pods` (each controller once); pods without a
 * controller count for nothing; throws, naming the first pod whose controller cannot be found.
 */
export function expectedScale(
  pods: Iterable<PodLike>,
  controllerScale: (pod: PodLike) => ControllerScale,
): number {
  const byController = new Map<string, number>();
  for (const pod of pods) {
    const scale = controllerScale(pod);
    if (scale === 'unmanaged') continue;
    if (scale === undefined) throw new Error(`found no controllers for pod "${pod.metadata.name ?? ''}"`);
    byController.set(scale.uid, scale.replicas);
  }
  let total = 0;
  for (const replicas of byController.values()) total += replicas;
  return total;
}
