// The catalog gauges' cost per getInstanceTypes call (the review finding behind the decorator's
// fingerprint): the large catalog (800 types, 9,600 offerings) through `withMetrics`, returned
// as the same array, as an equal copy, and with one price changed each call (which sets every
// gauge again, as every call did before the fingerprint). Run with `pnpm bench:catalog-metrics`
// (builds first). See README.md.
import { performance } from 'node:perf_hooks';
import type { NodePool } from '../packages/core/dist/apis/index.js';
import {
  cloudProviderMetrics,
  type InstanceType,
  withMetrics,
} from '../packages/core/dist/cloudprovider/index.js';
import { ControllerEnv } from '../packages/core/dist/testing/index.js';
import { largeCatalog } from './large-catalog.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The catalog with the first offering's price moved by `step`: a change every gauge record must see. */
function repriced(types: readonly InstanceType[], step: number): InstanceType[] {
  const [first, ...rest] = types as [InstanceType, ...InstanceType[]];
  const [offering, ...others] = first.offerings;
  return [
    { ...first, offerings: [{ ...offering!, price: offering!.price + step * 1e-6 }, ...others] },
    ...rest,
  ];
}

async function main(): Promise<void> {
  const calls = Number(option('--calls') ?? 50);
  const types = largeCatalog();
  const offerings = types.reduce((n, t) => n + t.offerings.length, 0);
  const pool = { metadata: { name: 'default' } } as NodePool;

  /** Median ms of one getInstanceTypes through the decorator, `next(i)` being what the provider returns on call i. */
  const time = async (next: (i: number) => InstanceType[]) => {
    let i = 0;
    // A fresh registry per case (the test kit's), so no case starts with another's series.
    const env = new ControllerEnv();
    const inner = env.cloudProvider;
    inner.getInstanceTypes = async () => next(i++);
    const provider = withMetrics(inner, cloudProviderMetrics(env.registry));
    await provider.getInstanceTypes(pool); // the first call records the catalog in every case
    const ms: number[] = [];
    for (let c = 0; c < calls; c++) {
      const start = performance.now();
      await provider.getInstanceTypes(pool);
      ms.push(performance.now() - start);
    }
    return median(ms);
  };

  const changed = await time((i) => repriced(types, i));
  const rows: [string, number][] = [
    ['price changed each call (records all)', changed],
    ['same array each call', await time(() => types)],
    ['equal copy each call (fingerprint)', await time(() => [...types])],
  ];
  console.log(
    `getInstanceTypes through withMetrics: ${types.length} types, ${offerings} offerings, median of ${calls} calls`,
  );
  console.log(`${'case'.padEnd(40)} ${'ms/call'.padStart(8)} ${'x changed'.padStart(10)}`);
  for (const [name, ms] of rows) {
    console.log(`${name.padEnd(40)} ${ms.toFixed(3).padStart(8)} ${(ms / changed).toFixed(3).padStart(10)}`);
  }
}

await main();
