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

/** The scenario's launch latency (create -> instance running). Default 5 s. */
export function launchLatency(cloud: Scenario['cloud']): LatencySpec {
  return latencySpec(cloud.launchLatency ?? 5_000);
}

/** The scenario's boot delay (instance running -> Node registered). Default 30 s. */
export function bootDelay(cloud: Scenario['cloud']): LatencySpec {
  return latencySpec(cloud.registrationDelay ?? 30_000);
}
