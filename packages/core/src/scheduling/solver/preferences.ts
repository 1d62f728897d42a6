import type {
  PodAffinityTerm,
  PreferredSchedulingTerm,
  WeightedPodAffinityTerm,
} from '../../apis/kubernetes/affinity.js';
import type { NodeSelectorTerm } from '../../apis/kubernetes/node-selector.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Toleration } from '../../apis/kubernetes/taint.js';
import type { TopologySpreadConstraint } from '../../apis/kubernetes/topology-spread.js';
import { preferredNodeAffinityTerms, requiredNodeAffinityTerms } from '../pod/node-requirements.js';
import { TolerateAllPreferNoSchedule, toleratesAnyPreferNoSchedule } from '../taints/tolerations.js';

/**
 * The scheduling-relevant part of a pod's spec at one relaxation step. Preferences start out
 * treated as requirements (all preferred pod (anti-)affinity terms, the heaviest preferred node
 * affinity term, ScheduleAnyway spread, PreferNoSchedule taints) and are dropped one per failed
 * attempt. Weighted lists are heaviest first. Immutable.
 */
export interface PodView {
  readonly requiredTerms: readonly NodeSelectorTerm[] | undefined;
  readonly preferredNodeTerms: readonly PreferredSchedulingTerm[];
  readonly affinityRequired: readonly PodAffinityTerm[];
  readonly affinityPreferred: readonly WeightedPodAffinityTerm[];
  readonly antiAffinityRequired: readonly PodAffinityTerm[];
  readonly antiAffinityPreferred: readonly WeightedPodAffinityTerm[];
  readonly spread: readonly TopologySpreadConstraint[];
  readonly tolerations: readonly Toleration[];
}

function heaviestFirst<T extends { weight: number }>(terms: readonly T[] | undefined): T[] {
  return [...(terms ?? [])].sort((a, b) => b.weight - a.weight);
}

/**
 * The view a pod starts from. With `ignorePreferences` every preference is dropped up front (and
 * PreferNoSchedule taints tolerated); only the required node affinity terms are still tried one
 * after another.
 */
export function initialView(pod: Pod, ignorePreferences: boolean): PodView {
  const affinity = pod.spec.affinity;
  const view: PodView = {
    requiredTerms: requiredNodeAffinityTerms(pod),
    preferredNodeTerms: preferredNodeAffinityTerms(pod),
    affinityRequired: affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
    affinityPreferred: heaviestFirst(affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    antiAffinityRequired: affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
    antiAffinityPreferred: heaviestFirst(
      affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    spread: pod.spec.topologySpreadConstraints ?? [],
    tolerations: pod.spec.tolerations ?? [],
  };
  if (!ignorePreferences) return view;
  return {
    ...view,
    preferredNodeTerms: [],
    affinityPreferred: [],
    antiAffinityPreferred: [],
    spread: view.spread.filter((c) => c.whenUnsatisfiable !== 'ScheduleAnyway'),
    tolerations: toleratesAnyPreferNoSchedule(view.tolerations)
      ? view.tolerations
      : [...view.tolerations, TolerateAllPreferNoSchedule],
  };
}

/** One relaxation: the view after it and what it gave up, for logs and tests. */
export interface Relaxation {
  readonly view: PodView;
  readonly step: string;
}

/**
 * The next relaxation in Karpenter's order, or undefined when nothing is left to give up:
 * the first of several required node affinity terms; the heaviest preferred pod affinity term;
 * the heaviest preferred pod anti-affinity term; the heaviest preferred node affinity term; the
 * first ScheduleAnyway spread constraint; finally a toleration of every PreferNoSchedule taint.
 */
export function relax(view: PodView, toleratePreferNoSchedule: boolean): Relaxation | undefined {
  const required = view.requiredTerms;
  if (required !== undefined && required.length > 1) {
    return { view: { ...view, requiredTerms: required.slice(1) }, step: 'required node affinity term' };
  }
  if (view.affinityPreferred.length > 0) {
    return {
      view: { ...view, affinityPreferred: view.affinityPreferred.slice(1) },
      step: 'preferred pod affinity term',
    };
  }
  if (view.antiAffinityPreferred.length > 0) {
    return {
      view: { ...view, antiAffinityPreferred: view.antiAffinityPreferred.slice(1) },
      step: 'preferred pod anti-affinity term',
    };
  }
  if (view.preferredNodeTerms.length > 0) {
    return {
      view: { ...view, preferredNodeTerms: view.preferredNodeTerms.slice(1) },
      step: 'preferred node affinity term',
    };
  }
  const soft = view.spread.findIndex((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
  if (soft >= 0) {
    // Karpenter swaps the last constraint into the removed one's place; the order of the rest
    // decides which spread narrows a claim first, so it is kept the same way.
    const spread = view.spread.slice();
    spread[soft] = spread[spread.length - 1]!;
    spread.pop();
    return { view: { ...view, spread }, step: 'ScheduleAnyway topology spread constraint' };
  }
  if (toleratePreferNoSchedule && !toleratesAnyPreferNoSchedule(view.tolerations)) {
    return {
      view: { ...view, tolerations: [...view.tolerations, TolerateAllPreferNoSchedule] },
      step: 'PreferNoSchedule taints',
    };
  }
  return undefined;
}
