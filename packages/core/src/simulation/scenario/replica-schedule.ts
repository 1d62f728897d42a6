import type { ScenarioDeployment } from './scenario-schema.js';

const HOUR = 3_600_000;

/** A replica count a Deployment takes from `at` (ms from the start) on. */
export interface ReplicaChange {
  readonly at: number;
  readonly replicas: number;
}

/**
 * The replica counts a scenario Deployment goes through within `[0, duration)`, in time order,
 * each differing from the one before (the first at 0). A diurnal curve is a cosine between
 * `min` and `max` peaking at `peakAt` (default 14h) every `period` (default 24h), sampled every
 * `every` (default 15m) and rounded.
 */
export function replicaChanges(replicas: ScenarioDeployment['replicas'], duration: number): ReplicaChange[] {
  if (typeof replicas === 'number') return [{ at: 0, replicas }];
  const raw: ReplicaChange[] = [];
  if (Array.isArray(replicas)) {
    if (replicas[0]!.at > 0) raw.push({ at: 0, replicas: 0 });
    raw.push(...replicas.filter((s) => s.at < duration));
  } else {
    const { min, max } = replicas.diurnal;
    const peakAt = replicas.diurnal.peakAt ?? 14 * HOUR;
    const period = replicas.diurnal.period ?? 24 * HOUR;
    const every = replicas.diurnal.every ?? 15 * 60_000;
    for (let at = 0; at < duration; at += every) {
      const phase = (2 * Math.PI * (at - peakAt)) / period;
      raw.push({ at, replicas: Math.round(min + ((max - min) * (1 + Math.cos(phase))) / 2) });
    }
  }
  const out: ReplicaChange[] = [];
  for (const step of raw) if (out.at(-1)?.replicas !== step.replicas) out.push(step);
  return out;
}
