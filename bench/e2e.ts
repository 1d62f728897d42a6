// Karpenter's performance test on the real control plane, with the KWOK provider: 1,000 pods
// (500 x 900m/3100Mi, 500 x 3500m/28Gi; `--pods N` scales both alike) scale out; then the
// Deployments scale to zero and the nodes are consolidated away. kube-apiserver's request
// counts over each phase are read from its /metrics. Prints the figures Karpenter publishes bars for (< 2 min to all
// pods Running, CPU utilisation > 53 %, memory > 65 %, controller p95 memory < 260 MB).
// Run with `pnpm bench:e2e` (builds first; runs the built CLI and packages). Progress on
// stderr, figures on stdout, and the run as charts in reports/bench-e2e.html (RSS against
// Karpenter's bar, pods Running, nodes). NODEWRIGHT_KUBECONFIG=... runs it on an existing cluster.
// A real Prometheus scrapes the controller throughout; the run leaves its TSDB snapshot in
// reports/bench-e2e-prometheus/, and the report's dashboard panels are read from that snapshot.
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { apiserverRequests, requestsBetween } from '../conformance/suite/dist/e2e/apiserver-requests.js';
import { ControllerProcess } from '../conformance/suite/dist/e2e/controller-process.js';
import { type E2EEnvironment, startE2EEnvironment } from '../conformance/suite/dist/e2e/environment.js';
import { AppLabel, deploymentManifest, nodePoolManifest } from '../conformance/suite/dist/e2e/manifests.js';
import { isLive, isRunningPod, type Observed } from '../conformance/suite/dist/e2e/observe.js';
import { percentile } from '../conformance/suite/dist/e2e/proc-status.js';
import {
  ensurePrometheus,
  loadDashboards,
  PanelStyle,
  PrometheusProcess,
  type RenderedPanel,
  readSnapshotPanels,
  renderPanelSections,
  saveSnapshot,
} from '../conformance/suite/dist/prometheus/index.js';
import { escapeHtml, lineChart } from '../packages/cli/dist/commands/simulate-svg.js';
import { SystemTimers } from '../packages/core/dist/clock/index.js';
import { Deployments, NodePools, Nodes, Pods } from '../packages/core/dist/kube/index.js';
import { Quantity } from '../packages/core/dist/scheduling/index.js';
import { KWOKNodeClasses } from '../providers/kwok/dist/index.js';

const Pool = 'bench';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// `--pods N` scales Karpenter's two Deployments alike (default 1,000: its test as published).
const PodsWanted = Number(option('--pods') ?? 1000);
if (!Number.isInteger(PodsWanted) || PodsWanted < 2)
  throw new Error('--pods must be an integer of 2 or more');
const Workloads = [
  { name: 'small', replicas: Math.ceil(PodsWanted / 2), cpu: '900m', memory: '3100Mi' },
  { name: 'large', replicas: Math.floor(PodsWanted / 2), cpu: '3500m', memory: '28Gi' },
] as const;
const TotalPods = Workloads.reduce((n, w) => n + w.replicas, 0);
// The limits grow with the size, so a larger run is measured rather than cut off.
const SizeFactor = Math.max(1, TotalPods / 1000);
const ScaleOutLimitMs = 10 * 60_000 * SizeFactor;
const ScaleInLimitMs = 5 * 60_000 * SizeFactor;
const BinPath = new URL('../packages/cli/dist/bin.js', import.meta.url).pathname;
const ReportPath = new URL('../reports/bench-e2e.html', import.meta.url).pathname;
const SnapshotPath = new URL('../reports/bench-e2e-prometheus', import.meta.url).pathname;
const ScrapeSeconds = 2;

const progress = (line: string): void => {
  process.stderr.write(`[bench:e2e] ${line}\n`);
};
const sleep = (ms: number) =>
  new Promise((resolve) => new SystemTimers().after(ms, () => resolve(undefined)));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface PodShape extends Observed {
  readonly spec?: Observed['spec'] & {
    readonly containers?: readonly { readonly resources?: { readonly requests?: Record<string, string> } }[];
  };
}
interface NodeShape extends Observed {
  readonly status?: Observed['status'] & { readonly allocatable?: Record<string, string> };
}

function sum(values: Iterable<string | undefined>, unit: 'milli' | 'units'): number {
  let total = 0;
  for (const v of values) {
    if (v === undefined) continue;
    const q = Quantity.parse(v);
    total += unit === 'milli' ? q.toMilliNumber() : q.toNumber();
  }
  return total;
}

async function snapshot(env: E2EEnvironment) {
  const [pods, nodes] = await Promise.all([
    env.cluster.list<PodShape>(Pods, { namespace: env.namespace }),
    env.cluster.list<NodeShape>(Nodes, { labelSelector: `karpenter.sh/nodepool=${Pool}` }),
  ]);
  return { pods: pods.items, nodes: nodes.items };
}

async function main(): Promise<void> {
  // Built (or found in its cache) before the clock starts.
  const prometheusBinary = await ensurePrometheus();
  progress('starting the control plane');
  const external = process.env.NODEWRIGHT_KUBECONFIG;
  const env = await startE2EEnvironment({
    name: 'bench',
    ...(external ? { externalKubeconfig: external } : {}),
    // --keep keeps the work directory (controller logs) after the run.
    ...(process.argv.includes('--keep') ? { keep: true } : {}),
  });
  let controller: ControllerProcess | undefined;
  let prometheus: PrometheusProcess | undefined;
  const rss: number[] = [];
  let peak = 0;
  // (seconds since the controller was ready, value) for the HTML report.
  const rssSeries: [number, number][] = [];
  const runningSeries: [number, number][] = [];
  const nodeSeries: [number, number][] = [];
  let origin = 0;
  const since = () => (performance.now() - origin) / 1000;
  let sampling = true;
  try {
    let generation = 0;
    const launch = async (): Promise<ControllerProcess> => {
      generation += 1;
      const started = ControllerProcess.start({
        binPath: BinPath,
        provider: 'kwok',
        kubeconfigPath: env.kubeconfigPath,
        identity: `bench-${generation}`,
        leaderElectionId: 'nodewright-bench',
        logFile: `${env.workDir}/controller-${generation}.log`,
        keepEntries: 2_000,
        registry: env.processes,
      });
      controller = started;
      await started.waitForLog((e) => e.message === 'became leader', 'leadership', 120_000);
      for (;;) {
        if ((await started.http('health', '/readyz')).status === 200) break;
        await sleep(200);
      }
      return started;
    };
    let running = await launch();
    progress(`controller ready (pid ${running.pid}, logs ${env.workDir}/controller-N.log)`);
    // Scrapes the first controller only: a restarted one listens on another port.
    prometheus = await PrometheusProcess.start({
      binary: prometheusBinary,
      dir: `${env.workDir}/prometheus`,
      targets: [`127.0.0.1:${await running.port('metrics')}`],
      scrapeIntervalSeconds: ScrapeSeconds,
      registry: env.processes,
    });
    const promStart = Date.now() / 1000;
    const restarts: string[] = [];
    // A Deployment restarts a controller that exits (e.g. after losing its Lease); so does the bench, counting it.
    const keepRunning = async (): Promise<void> => {
      if (!running.exit) return;
      const why = running.textLines().at(-1) ?? `exit ${JSON.stringify(running.exit)}`;
      restarts.push(why);
      progress(`controller exited (${why}); restarting it`);
      running = await launch();
    };
    origin = performance.now();
    const sampler = (async () => {
      while (sampling) {
        try {
          const now = await running.memory();
          rss.push(now.rssBytes);
          rssSeries.push([since(), now.rssBytes / 1e6]);
          peak = Math.max(peak, now.peakRssBytes);
        } catch {
          // The process may be exiting; its figures stop here.
        }
        await sleep(1000);
      }
    })();

    await env.cluster.apply(
      KWOKNodeClasses,
      { apiVersion: 'karpenter.kwok.sh/v1alpha1', kind: 'KWOKNodeClass', metadata: { name: Pool }, spec: {} },
      { fieldManager: 'nodewright-bench', force: true },
    );
    await env.cluster.apply(
      NodePools,
      nodePoolManifest({
        name: Pool,
        nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: Pool },
        requirements: [
          { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
        consolidateAfter: '0s',
      }),
      { fieldManager: 'nodewright-bench', force: true },
    );

    const requestsAtStart = await apiserverRequests(env.connection);
    const start = performance.now();
    for (const w of Workloads) {
      await env.cluster.create(
        Deployments,
        deploymentManifest({
          name: w.name,
          namespace: env.namespace,
          replicas: w.replicas,
          nodePool: Pool,
          requests: { cpu: w.cpu, memory: w.memory },
        }),
      );
    }
    progress(`created ${TotalPods} pods in ${Workloads.length} Deployments`);

    let state = await snapshot(env);
    let lastReport = 0;
    for (;;) {
      await keepRunning();
      state = await snapshot(env);
      const runningPods = state.pods.filter(isRunningPod).length;
      const elapsed = performance.now() - start;
      runningSeries.push([since(), runningPods]);
      nodeSeries.push([since(), state.nodes.length]);
      if (elapsed - lastReport >= 5_000) {
        lastReport = elapsed;
        progress(
          `${seconds(elapsed)}: ${runningPods}/${TotalPods} pods Running, ${state.nodes.length} nodes`,
        );
      }
      if (runningPods === TotalPods) break;
      if (elapsed > ScaleOutLimitMs)
        throw new Error(`only ${runningPods}/${TotalPods} pods Running after ${seconds(elapsed)}`);
      await sleep(500);
    }
    const scaleOutMs = performance.now() - start;
    const live = state.nodes.filter(isLive);
    const requested = (resource: 'cpu' | 'memory') =>
      sum(
        state.pods.flatMap((p) => (p.spec?.containers ?? []).map((c) => c.resources?.requests?.[resource])),
        resource === 'cpu' ? 'milli' : 'units',
      );
    const allocatable = (resource: 'cpu' | 'memory') =>
      sum(
        live.map((n) => n.status?.allocatable?.[resource]),
        resource === 'cpu' ? 'milli' : 'units',
      );
    const cpuUtil = requested('cpu') / allocatable('cpu');
    const memUtil = requested('memory') / allocatable('memory');
    const types = new Map<string, number>();
    for (const n of live) {
      const t = n.metadata.labels?.['node.kubernetes.io/instance-type'] ?? '?';
      types.set(t, (types.get(t) ?? 0) + 1);
    }
    const scaleOutCpu = await running.cpuSeconds().catch(() => undefined);
    const requestsAtRunning = await apiserverRequests(env.connection);
    progress(`all pods Running after ${seconds(scaleOutMs)}; scaling to zero`);

    const scaleInStart = performance.now();
    for (const w of Workloads) {
      await env.cluster.patch(
        Deployments,
        { namespace: env.namespace, name: w.name },
        { spec: { replicas: 0 } },
      );
    }
    lastReport = 0;
    let remaining = live.length;
    for (;;) {
      const nodes = (
        await env.cluster.list<NodeShape>(Nodes, { labelSelector: `karpenter.sh/nodepool=${Pool}` })
      ).items;
      remaining = nodes.length;
      nodeSeries.push([since(), remaining]);
      const elapsed = performance.now() - scaleInStart;
      if (elapsed - lastReport >= 5_000) {
        lastReport = elapsed;
        const pods = (
          await env.cluster.list<PodShape>(Pods, { namespace: env.namespace, labelSelector: AppLabel })
        ).items.length;
        progress(`${seconds(elapsed)} after scale-down: ${remaining} nodes, ${pods} pods left`);
      }
      if (remaining === 0) break;
      if (elapsed > ScaleInLimitMs) break;
      await sleep(1000);
    }
    const scaleInMs = performance.now() - scaleInStart;
    const requestsAtEnd = await apiserverRequests(env.connection);
    sampling = false;
    await sampler;
    const last = await running.memory().catch(() => undefined);
    if (last) peak = Math.max(peak, last.peakRssBytes);
    const totalCpu = await running.cpuSeconds().catch(() => undefined);
    const p95 = percentile(rss, 95);

    const rows: [string, string, string][] = [
      ['pods', String(TotalPods), ''],
      ['time to all pods Running', seconds(scaleOutMs), '< 2 min'],
      ['nodes', String(live.length), ''],
      ['instance types', [...types].map(([t, n]) => `${n} x ${t}`).join(', '), ''],
      ['CPU utilisation (requests / allocatable)', `${(cpuUtil * 100).toFixed(1)} %`, '> 53 %'],
      ['memory utilisation (requests / allocatable)', `${(memUtil * 100).toFixed(1)} %`, '> 65 %'],
      ['controller p95 RSS (1 s samples)', p95 === undefined ? 'n/a' : mb(p95), '< 260 MB'],
      ['controller peak RSS (VmHWM, highest of any process)', peak === 0 ? 'n/a' : mb(peak), ''],
      [
        'controller CPU time (user + system)',
        scaleOutCpu === undefined || totalCpu === undefined
          ? 'n/a'
          : `${totalCpu.toFixed(1)} s (${scaleOutCpu.toFixed(1)} s by all pods Running)`,
        '',
      ],
      ['controller restarts', restarts.length === 0 ? '0' : `${restarts.length}: ${restarts.join('; ')}`, ''],
      [
        'time to consolidate after scale to zero',
        remaining === 0 ? seconds(scaleInMs) : `> ${seconds(scaleInMs)} (${remaining} nodes left)`,
        '',
      ],
      [
        'apiserver requests, scale-out (all clients)',
        requestsBetween(requestsAtStart, requestsAtRunning),
        '',
      ],
      ['apiserver requests, scale-in (all clients)', requestsBetween(requestsAtRunning, requestsAtEnd), ''],
    ];
    // Two more scrapes, so the last figures are in the snapshot.
    await sleep(2_000 * ScrapeSeconds);
    await saveSnapshot(prometheus, `${env.workDir}/prometheus/data`, SnapshotPath, {
      start: promStart,
      end: Date.now() / 1000,
      scrapeIntervalSeconds: ScrapeSeconds,
    });
    await prometheus.stop();
    progress(`Prometheus snapshot: ${SnapshotPath}`);
    const { rendered } = await readSnapshotPanels(
      { binary: prometheusBinary },
      SnapshotPath,
      loadDashboards(),
      env.workDir,
      env.processes,
    );
    writeReport(rows, rssSeries, runningSeries, nodeSeries, rendered, promStart);
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write('nodewright e2e performance (KWOK provider, real control plane)\n');
    for (const [name, value, bar] of rows) {
      process.stdout.write(`  ${name.padEnd(width)}  ${value}${bar ? `   (Karpenter: ${bar})` : ''}\n`);
    }
  } finally {
    sampling = false;
    await prometheus?.stop();
    await controller?.stop();
    await env.stop();
  }
}

/** The figures as a table and the run as charts: RSS against Karpenter's bar, pods Running, nodes. */
function writeReport(
  rows: readonly (readonly [string, string, string])[],
  rssSeries: readonly (readonly [number, number])[],
  runningSeries: readonly (readonly [number, number])[],
  nodeSeries: readonly (readonly [number, number])[],
  panels: readonly RenderedPanel[],
  panelsStart: number,
): void {
  const end = Math.max(0, ...rssSeries.map(([t]) => t), ...nodeSeries.map(([t]) => t));
  // One x axis for every chart: seconds since the controller was ready, to the end of the run.
  const axes = {
    formatY: (v: number) => String(Math.round(v)),
    xLabel: (v: number) => `${Math.round(v)} s`,
    xTicks: 'decimal' as const,
    xTitle: 'seconds since the controller was ready',
    maxX: end,
  };
  const table = rows
    .map(
      ([name, value, bar]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(value)}</td><td>${escapeHtml(bar)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>nodewright bench:e2e</title>
<style>body{font-family:sans-serif;max-width:800px;margin:2em auto}td{padding:2px 12px 2px 0}${PanelStyle}</style></head><body>
<h1>nodewright e2e performance (KWOK provider, real control plane)</h1>
<p>Karpenter's test (${TotalPods} pods); x is seconds since the controller was ready (pods are created just after).</p>
<table><tr><th align="left">figure</th><th align="left">nodewright</th><th align="left">Karpenter's bar</th></tr>${table}</table>
${lineChart(
  'Controller RSS (MB, 1 s samples)',
  [
    { label: 'controller RSS', colour: '#1f77b4', points: rssSeries },
    {
      label: "Karpenter's p95 bar",
      colour: '#d62728',
      points: [
        [0, 260],
        [end, 260],
      ],
      dashed: true,
    },
  ],
  { ...axes, yTitle: 'MB' },
)}
${lineChart('Pods Running', [{ label: 'Running', colour: '#2ca02c', points: runningSeries }], { ...axes, yTitle: 'pods', minStepY: 1 })}
${lineChart('Nodes', [{ label: 'nodes', colour: '#9467bd', points: nodeSeries }], { ...axes, yTitle: 'nodes', minStepY: 1 })}
<h2>Grafana dashboards (deploy/grafana), from the run's Prometheus snapshot</h2>
<p>Every panel, read back from the TSDB snapshot in reports/bench-e2e-prometheus/ (Prometheus scraped the
controller every ${ScrapeSeconds} s); x is seconds since Prometheus started, just after the controller was ready.</p>
${renderPanelSections(panelsStart, panels)}
</body></html>
`;
  mkdirSync(new URL('../reports/', import.meta.url), { recursive: true });
  writeFileSync(ReportPath, html);
  progress(`report: ${ReportPath}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:e2e failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
