import type { InterruptionStorm } from '../cloud/options.js';
import type { LatencySpec } from '../latency/latency.js';
import type { Scenario, ScenarioLatency } from '../scenario/scenario-schema.js';

/** A scenario latency in the simulated components' terms. */
export function latencySpec(l: ScenarioLatency): LatencySpec {
  if (typeof l === 'number') return l;
  if ('uniform' in l) return { uniform: { minMs: l.uniform.min, maxMs: l.uniform.max } };
  if ('normal' in l) return { normal: { meanMs: l.normal.mean, stddevMs: l.normal.stddev } };
  return { exponential: { meanMs: l.exponential.mean } };
}

/** ICE rates by `capacityType:type:zone`; a bare number or `default` applies to every offering. */
export function insufficientCapacityRates(iceRate: Scenario['cloud']['iceRate']): Record<string, number> {
  if (iceRate === undefined) return {};
  if (typeof iceRate === 'number') return { '*:*:*': iceRate };
  const out: Record<string, number> = {};
  for (const [key, rate] of Object.entries(iceRate)) out[key === 'default' ? '*:*:*' : key] = rate;
  return out;
}

/** The scenario's storms at absolute times. */
export function interruptionStorms(scenario: Scenario, start: number): InterruptionStorm[] {
  return (scenario.cloud.storms ?? []).map((s) => ({
    at: start + s.at,
    match: { capacityType: s.capacityType, ...(s.zone === undefined ? {} : { zone: s.zone }) },
    fraction: s.fraction,
  }));
}

/**
 * From launch to Node registration: the registration delay shifted by the launch latency's
 * mean. The simulated cloud's own create latency sleeps inside a reconcile, which the
 * settle-then-advance driving cannot allow, so the wait is taken here instead.
 */
export function bootDelay(cloud: Scenario['cloud']): LatencySpec {
  const launch = cloud.launchLatency === undefined ? 5_000 : meanMs(latencySpec(cloud.launchLatency));
  const boot = latencySpec(cloud.registrationDelay ?? 30_000);
  if (typeof boot === 'number') return boot + launch;
  if ('uniform' in boot)
    return { uniform: { minMs: boot.uniform.minMs + launch, maxMs: boot.uniform.maxMs + launch } };
  if ('normal' in boot)
    return { normal: { meanMs: boot.normal.meanMs + launch, stddevMs: boot.normal.stddevMs } };
  return { exponential: { meanMs: boot.exponential.meanMs + launch } };
}

function meanMs(l: LatencySpec): number {
  if (typeof l === 'number') return l;
  if ('uniform' in l) return (l.uniform.minMs + l.uniform.maxMs) / 2;
  if ('normal' in l) return l.normal.meanMs;
  return l.exponential.meanMs;
}
