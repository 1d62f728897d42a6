import type { Toleration } from '../../apis/kubernetes/taint.js';

/** A taint as nodes and NodePools carry it (value optional). */
export interface TaintLike {
  readonly key: string;
  readonly value?: string | undefined;
  readonly effect: string;
}

/**
 * Whether `taints` hold `taint` by key and effect (its value ignored), as kube-scheduler and
 * Karpenter match their own taints (`karpenter.sh/disrupted`, `karpenter.sh/unregistered`).
 */
export function hasTaint(taints: readonly TaintLike[] | undefined, taint: TaintLike): boolean {
  return (taints ?? []).some((t) => isTaint(t, taint));
}

/** `candidate` is `taint` by key and effect. */
export function isTaint(candidate: TaintLike, taint: TaintLike): boolean {
  return candidate.key === taint.key && candidate.effect === taint.effect;
}

/** Kubernetes' ToleratesTaint: effect (if set) and key (if set) match; Exists, or Equal with the same value. */
export function toleratesTaint(toleration: Toleration, taint: TaintLike): boolean {
  const effect = toleration.effect ?? '';
  if (effect !== '' && effect !== taint.effect) return false;
  const key = toleration.key ?? '';
  if (key !== '' && key !== taint.key) return false;
  const operator = toleration.operator ?? 'Equal';
  if (operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/**
 * The first taint no toleration tolerates, or undefined. Every effect counts, PreferNoSchedule
 * included, as in Karpenter: a PreferNoSchedule taint is a preference that relaxation gives up
 * last (by tolerating it).
 */
export function untoleratedTaint(
  taints: readonly TaintLike[],
  tolerations: readonly Toleration[] | undefined,
): TaintLike | undefined {
  for (const taint of taints) {
    let ok = false;
    for (const t of tolerations ?? []) {
      if (toleratesTaint(t, taint)) {
        ok = true;
        break;
      }
    }
    if (!ok) return taint;
  }
  return undefined;
}

/** Whether the tolerations tolerate every taint. */
export function toleratesAll(
  taints: readonly TaintLike[],
  tolerations: readonly Toleration[] | undefined,
): boolean {
  return untoleratedTaint(taints, tolerations) === undefined;
}

/** `key=value:Effect`, or `key:Effect` without a value. */
export function describeTaint(taint: TaintLike): string {
  const value = taint.value ?? '';
  return `${taint.key}${value === '' ? '' : `=${value}`}:${taint.effect}`;
}

/** The toleration relaxation adds: every PreferNoSchedule taint. */
export const TolerateAllPreferNoSchedule: Toleration = Object.freeze({
  operator: 'Exists',
  effect: 'PreferNoSchedule',
});

/** Whether the tolerations already tolerate every PreferNoSchedule taint. */
export function toleratesAnyPreferNoSchedule(tolerations: readonly Toleration[] | undefined): boolean {
  return (tolerations ?? []).some(
    (t) =>
      (t.key ?? '') === '' &&
      t.operator === 'Exists' &&
      ((t.effect ?? '') === '' || t.effect === 'PreferNoSchedule'),
  );
}
