// GCP launch benchmark: how long a NodeClaim takes to launch when half of the machine-type pools
// are stocked out, with `launchMode=bulkInsert` (one request offering a zone up to ten types)
// against `launchMode=insert` (one request per offering). The real GCP provider and the real
// @google-cloud/compute clients against the Compute Engine mock, which answers each launch
// request after LaunchLatencyMs (standing in for GCE's seconds per insert operation).
// Run with `pnpm bench:gcp-launch` (builds first; imports the built packages). See README.md.
import { performance } from 'node:perf_hooks';
import { ContractClaims } from '../conformance/suite/dist/provider-contract/contract-claims.js';
import { startGcpWorld } from '../conformance/suite/dist/providers/gcp-harness.js';
import { isInsufficientCapacity } from '../packages/core/dist/cloudprovider/index.js';
import { Xorshift32 } from './calibration.ts';

const Claims = Number(process.env.CLAIMS ?? 40);
const LaunchLatencyMs = 100;
const StockoutShare = 0.5;
const Seed = 20261204;
/** VMs each spot pool (machine type, zone) has room for before it, too, is stocked out. */
const PoolCapacity = 3;

interface Run {
  readonly mode: string;
  readonly stockout: number;
  readonly launched: number;
  readonly failed: number;
  readonly requests: number;
  readonly refused: number;
  readonly p50: number;
  readonly p95: number;
  readonly totalMs: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function run(mode: 'bulkInsert' | 'insert', stockout: number): Promise<Run> {
  const world = await startGcpWorld({ settings: { launchMode: mode } });
  try {
    const provider = world.instance.cloudProvider;
    const types = await provider.getInstanceTypes(world.nodePool);
    // The same pools go dry in both modes: a seeded draw over every (type, zone) spot pool.
    const random = new Xorshift32(Seed);
    const pools = types.flatMap((t) =>
      t.offerings
        .filter((o) => o.capacityType === 'spot')
        .map((o) => ({ machineType: t.name, zone: o.zone })),
    );
    // Every pool holds PoolCapacity VMs, so claims drain the cheapest pools as they go, as a
    // real zone does; the stocked-out share holds none from the start.
    for (const pool of pools) {
      const dry = random.int(1000) < stockout * 1000;
      world.mock.faults.stockout({ ...pool, provisioningModel: 'SPOT' }, dry ? 0 : PoolCapacity);
    }
    world.mock.faults.latency('instances.insert', LaunchLatencyMs);
    world.mock.faults.latency('instances.bulkInsert', LaunchLatencyMs);
    const claims = new ContractClaims(world.nodePool);
    const times: number[] = [];
    let failed = 0;
    const started = performance.now();
    for (let i = 0; i < Claims; i++) {
      const t0 = performance.now();
      try {
        await provider.create(
          claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }]),
        );
        times.push(performance.now() - t0);
      } catch (err) {
        if (!isInsufficientCapacity(err)) throw err;
        failed++;
      }
      process.stderr.write(
        `\r[gcp-launch] ${mode} ${Math.round(stockout * 100)}% stocked out: ${i + 1}/${Claims}`,
      );
    }
    process.stderr.write('\n');
    const requests =
      world.mock.faults.calls('instances.insert') + world.mock.faults.calls('instances.bulkInsert');
    const sorted = [...times].sort((a, b) => a - b);
    return {
      mode,
      stockout,
      launched: times.length,
      failed,
      requests,
      refused: requests - times.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      totalMs: performance.now() - started,
    };
  } finally {
    await world.instance.close?.();
    await world.mock.close();
  }
}

const runs: Run[] = [];
for (const stockout of [0, StockoutShare]) {
  for (const mode of ['insert', 'bulkInsert'] as const) runs.push(await run(mode, stockout));
}

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
console.log(
  `\n${Claims} spot claims launched one after another; each spot pool holds ${PoolCapacity} VMs; each launch request answered after ${LaunchLatencyMs} ms\n`,
);
console.log(
  row([
    'mode',
    'pools stocked out',
    'launched',
    'failed',
    'launch requests',
    'refused requests',
    'p50 ms',
    'p95 ms',
    'total s',
  ]),
);
console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---']));
for (const r of runs) {
  console.log(
    row([
      r.mode,
      `${Math.round(r.stockout * 100)} %`,
      r.launched,
      r.failed,
      r.requests,
      r.refused,
      r.p50.toFixed(0),
      r.p95.toFixed(0),
      (r.totalMs / 1000).toFixed(2),
    ]),
  );
}
const at = (mode: string) => runs.find((r) => r.mode === mode && r.stockout === StockoutShare)!;
const insert = at('insert');
const bulk = at('bulkInsert');
console.log(
  `\nat ${StockoutShare * 100} % stocked out, bulkInsert / insert: total time ${(bulk.totalMs / insert.totalMs).toFixed(2)}, ` +
    `p95 ${(bulk.p95 / insert.p95).toFixed(2)}, launch requests ${(bulk.requests / insert.requests).toFixed(2)}, ` +
    `failed claims ${bulk.failed} vs ${insert.failed}`,
);
