import type { Random } from '../random/random.js';

/**
 * How long something takes in a simulation: a fixed number of milliseconds, or a distribution
 * drawn from the component's seeded Random. Plain data, so scenario files can spell it.
 */
export type LatencySpec =
  | number
  | { readonly uniform: { readonly minMs: number; readonly maxMs: number } }
  | { readonly normal: { readonly meanMs: number; readonly stddevMs: number } }
  | { readonly exponential: { readonly meanMs: number } };

/**
 * One draw of a latency, in whole milliseconds, never negative. A fixed latency draws nothing,
 * so switching a component to fixed latencies does not disturb other streams.
 */
export function sampleLatency(spec: LatencySpec, random: Random): number {
  if (typeof spec === 'number') return Math.max(0, Math.round(spec));
  let ms: number;
  if ('uniform' in spec) {
    const { minMs, maxMs } = spec.uniform;
    ms = minMs + (maxMs - minMs) * random.next();
  } else if ('normal' in spec) {
    const u = 1 - random.next();
    const v = random.next();
    ms = spec.normal.meanMs + spec.normal.stddevMs * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  } else {
    ms = -Math.log(1 - random.next()) * spec.exponential.meanMs;
  }
  return Math.max(0, Math.round(ms));
}
