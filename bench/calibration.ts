// What every benchmark here shares: deterministic randomness, the calibration workload that
// turns seconds into machine-independent ratios, and peak-heap measurement.
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/** Marsaglia's xorshift32: tiny, fast and the same sequence on every machine for a seed. */
export class Xorshift32 {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0 || 1;
  }
  /** A uniform integer in [0, n). */
  int(n: number): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return Math.floor((this.#state / 2 ** 32) * n);
  }
  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }
}

/**
 * A fixed amount of ordinary JavaScript work (sorting, hashing, allocation) timed on this
 * machine, so runs on different machines can be compared by seconds / calibration. The median
 * of five, in seconds of `clock` (default wall time; pass cpuSeconds for CPU time).
 */
export function calibrate(clock: () => number = () => performance.now() / 1000): number {
  const rng = new Xorshift32(7);
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = clock();
    const values = Array.from({ length: 200_000 }, () => rng.int(1_000_000));
    values.sort((a, b) => a - b);
    const map = new Map<string, number>();
    for (const v of values) map.set(`k${v % 50_000}`, (map.get(`k${v % 50_000}`) ?? 0) + v);
    let acc = 0;
    for (const v of map.values()) acc ^= v;
    if (acc === -1) console.log(acc);
    runs.push(clock() - start);
  }
  runs.sort((a, b) => a - b);
  return runs[2]!;
}

/** CPU seconds (user + system) this process has used: steadier than wall time on a shared machine. */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * Starts watching the used V8 heap; the function returned stops and gives the peak in MiB: the
 * largest used size seen just before a collection (V8's GC profiler records them) or at the end.
 * With --expose-gc the heap is collected first, so earlier garbage does not count.
 */
export function watchHeapPeak(): () => number {
  (globalThis as { gc?: () => void }).gc?.();
  const profiler = new v8.GCProfiler();
  profiler.start();
  return () => {
    const end = v8.getHeapStatistics().used_heap_size;
    const profile = profiler.stop();
    let peak = end;
    for (const gc of profile?.statistics ?? [])
      peak = Math.max(peak, gc.beforeGC.heapStatistics.usedHeapSize);
    return peak / 2 ** 20;
  };
}
