// Per-pod metrics at scale: the size of `/metrics` and the time to render it with N pods
// waiting (pods_state + unbound + unstarted series each), with the same pods bound and Ready
// (pods_state only: the waiting series are gone), and with pods and nodes deleted (nothing left),
// each beside a baseline with no pods measured in the same run. Run with `pnpm bench:pod-metrics`
// (builds first). See README.md.
import { performance } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { Nodes, Pods } from '../packages/core/dist/kube/index.js';
import { metricsControllers } from '../packages/core/dist/metrics/index.js';
import { MetricsText } from '../packages/core/dist/operator/http/index.js';
import { ClusterState, clusterStateController } from '../packages/core/dist/state/index.js';
import { aNode, aPod, ControllerEnv } from '../packages/core/dist/testing/index.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Figures {
  readonly bytes: number;
  readonly series: number;
  /** prom-client's `registry.metrics()`. */
  readonly renderMs: number;
  /** The /metrics handler's MetricsText (kept across scrapes, as the handler keeps it). */
  readonly servedMs: number;
  /** Its longest stretch without a turn of the event loop. */
  readonly longestTurnMs: number;
}

/**
 * What a scrape of `env`'s registry costs now: the exposition's bytes and sample lines, and the
 * median render time by prom-client and by the /metrics handler (the same text, checked), with
 * the handler's longest stretch between two turns of the event loop.
 */
async function scrape(env: ControllerEnv, served: MetricsText, repeat: number): Promise<Figures> {
  const times: number[] = [];
  const servedTimes: number[] = [];
  let longestTurnMs = 0;
  let text = '';
  for (let i = 0; i < repeat; i++) {
    let start = performance.now();
    text = await env.registry.metrics();
    times.push(performance.now() - start);
    start = performance.now();
    let since = start;
    let waited = 0;
    const own = await served.render(env.registry, async () => {
      longestTurnMs = Math.max(longestTurnMs, performance.now() - since);
      const before = performance.now();
      await turn();
      since = performance.now();
      waited += since - before;
    });
    longestTurnMs = Math.max(longestTurnMs, performance.now() - since);
    servedTimes.push(performance.now() - start - waited);
    if (own !== text) throw new Error('the /metrics handler wrote another text than registry.metrics()');
  }
  const series = text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
  return {
    bytes: Buffer.byteLength(text),
    series,
    renderMs: median(times),
    servedMs: median(servedTimes),
    longestTurnMs,
  };
}

async function main(): Promise<void> {
  const pods = Number(option('--pods') ?? 10_000);
  const repeat = Number(option('--repeat') ?? 7);
  const perNode = 50;
  const env = new ControllerEnv();
  const state = new ClusterState({ clock: env.clock });
  await env.start(
    clusterStateController(state),
    ...metricsControllers({ state, clock: env.clock, registry: env.registry }),
  );
  const key = (i: number) => ({ name: `pod-${i}`, namespace: 'default' });
  const served = new MetricsText();

  const rows: [string, Figures][] = [['no pods (baseline)', await scrape(env, served, repeat)]];

  for (let i = 0; i < pods; i++) await env.cluster.create(Pods, aPod({ metadata: { name: key(i).name } }));
  await env.settle();
  await env.advance(30_000);
  rows.push([`${pods} pods pending`, await scrape(env, served, repeat)]);

  const nodes = Math.ceil(pods / perNode);
  for (let n = 0; n < nodes; n++) await env.create(Nodes, aNode({ metadata: { name: `node-${n}` } }));
  const readyAt = new Date(env.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  for (let i = 0; i < pods; i++) {
    await env.cluster.patch(Pods, key(i), { spec: { nodeName: `node-${Math.floor(i / perNode)}` } });
    await env.cluster.patchStatus(Pods, key(i), {
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: readyAt },
          { type: 'Ready', status: 'True', lastTransitionTime: readyAt },
        ],
      },
    });
  }
  await env.settle();
  rows.push([`${pods} pods running on ${nodes} nodes`, await scrape(env, served, repeat)]);

  for (let i = 0; i < pods; i++) await env.cluster.delete(Pods, key(i));
  for (let n = 0; n < nodes; n++) await env.cluster.delete(Nodes, { name: `node-${n}` });
  await env.settle();
  rows.push([`pods and nodes deleted`, await scrape(env, served, repeat)]);
  await env.stop();

  const [, base] = rows[0]!;
  console.log(
    `/metrics with ${pods} pods (median of ${repeat} renders; x base = ratio to the no-pod baseline; render: prom-client's registry.metrics(); served: the /metrics handler, its time without the turns it gives the loop, and its longest stretch between two)`,
  );
  console.log(
    `${'case'.padEnd(36)} ${'bytes'.padStart(11)} ${'x base'.padStart(7)} ${'samples'.padStart(8)} ${'render ms'.padStart(10)} ${'x base'.padStart(7)} ${'B/pod'.padStart(6)} ${'served ms'.padStart(10)} ${'x render'.padStart(9)} ${'longest turn ms'.padStart(16)}`,
  );
  for (const [name, f] of rows) {
    const perPod =
      name.startsWith('no pods') || name.endsWith('deleted')
        ? ''
        : ((f.bytes - base.bytes) / pods).toFixed(0);
    console.log(
      `${name.padEnd(36)} ${String(f.bytes).padStart(11)} ${(f.bytes / base.bytes).toFixed(1).padStart(7)} ${String(f.series).padStart(8)} ${f.renderMs.toFixed(1).padStart(10)} ${(f.renderMs / base.renderMs).toFixed(1).padStart(7)} ${perPod.padStart(6)} ${f.servedMs.toFixed(1).padStart(10)} ${(f.servedMs / f.renderMs).toFixed(2).padStart(9)} ${f.longestTurnMs.toFixed(1).padStart(16)}`,
    );
  }
}

await main();
