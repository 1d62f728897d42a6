import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { deferToEventLoop, timeSlices } from '../../clock/slices.js';
import { cluster, nodesWithPods, T0 } from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { computeDisruption, computeDisruptionInSlices } from './compute-disruption.js';

/** Counts the ticks of a `setInterval(…, 10)` that fire while `work` runs. */
async function ticksDuring(work: () => unknown): Promise<{ ticks: number; ms: number }> {
  await new Promise((resolve) => setTimeout(resolve, 30));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  const during = ticks;
  clearInterval(timer);
  return { ticks: during, ms };
}

// Real timers and a real 2,000-node pass: the property is that timers fire DURING the
// consolidation search, not how fast it is.
describe('computeDisruptionInSlices on real timers', () => {
  it('lets a 10 ms ticker fire during a 2,000-node consolidation pass; the unsliced pass does not', async () => {
    const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];
    const snapshot = cluster({
      pools: everyNode,
      nodes: [...nodesWithPods('a', 1_000, 1, '1'), ...nodesWithPods('b', 1_000, 1, '500m')],
    });
    let whole: ReturnType<typeof computeDisruption> | undefined;
    const blocked = await ticksDuring(() => {
      whole = computeDisruption(snapshot, T0);
    });
    const slices = timeSlices(() => performance.now(), deferToEventLoop, 20);
    let sliced: ReturnType<typeof computeDisruption> | undefined;
    const open = await ticksDuring(async () => {
      sliced = await computeDisruptionInSlices(snapshot, T0, slices);
    });
    // The control: a synchronous pass this long lets no timer run.
    expect(blocked.ms).toBeGreaterThan(50);
    expect(blocked.ticks).toBe(0);
    expect(open.ticks).toBeGreaterThan(0);
    expect(open.ticks).toBeGreaterThanOrEqual(Math.floor(open.ms / 500));
    expect(sliced?.commands[0]?.method).toBe('multi-node-consolidation');
    expect(sliced?.commands).toEqual(whole?.commands);
  }, 120_000);
});
