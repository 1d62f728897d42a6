import { describe, expect, it } from 'vitest';
import { steppingSlices } from '../../testing/stepping-slices.js';
import { solve, solveInSlices } from './solve.js';
import { benchmarkInput, pods, solverInput, summarize } from './testing/index.js';
import { DeadlineExceededReason } from './types.js';

describe('solveInSlices', () => {
  it('returns byte for byte what solve returns on 5,000 generated pods, with turns between', async () => {
    const input = benchmarkInput(5_000);
    const { slices, turns, reads } = steppingSlices(1, 20);
    const sliced = await solveInSlices(input, slices);
    expect(JSON.stringify(sliced)).toBe(JSON.stringify(solve(input)));
    // The slices are asked at least once per pod while classifying and once per placement.
    expect(reads()).toBeGreaterThan(2 * 5_000);
    // A turn every 20 reads (one read starts each new slice): no slice outlasts 20 ms of clock.
    expect(turns()).toBeGreaterThanOrEqual(Math.floor(reads() / 21));
  });

  it('keeps going when every slice is due at once (no slice may end before any work)', async () => {
    const input = benchmarkInput(300);
    const { slices, turns } = steppingSlices(0, 0);
    expect(JSON.stringify(await solveInSlices(input, slices))).toBe(JSON.stringify(solve(input)));
    expect(turns()).toBeGreaterThan(600);
  });

  it('never yields while its clock stands still (a simulation on a fake clock)', async () => {
    const input = benchmarkInput(300);
    const { slices, turns } = steppingSlices(0, 20);
    expect(summarize(await solveInSlices(input, slices))).toEqual(summarize(solve(input)));
    expect(turns()).toBe(0);
  });

  it('still honours the deadline, marking the pods it did not get to', async () => {
    const input = solverInput({ pods: pods('p', 5, { cpu: '7', memory: '1Gi' }) });
    const { slices, turns } = steppingSlices(1, 1);
    let reads = 0;
    const r = await solveInSlices(input, slices, { budgetMs: 25, elapsedMs: () => reads++ * 10 });
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0', 'p-1']]);
    expect(r.unschedulable.map((u) => u.reason)).toEqual(Array(3).fill(DeadlineExceededReason));
    expect(turns()).toBeGreaterThan(0);
  });
});
