// Live explain benchmark: on a real control plane with N pending pods, the wall time of
// `nodewright why pod` and `schedule --kubeconfig` (one read of the cluster, then the decision)
// beside the offline route they replace, `kubectl get ... -o yaml > FILE && nodewright schedule
// -f FILE`, timed in the same run. Run with `pnpm bench:why` (builds first). See README.md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startCluster } from '../conformance/cluster/dist/src/index.js';
import { applyKwokPool } from '../conformance/suite/dist/e2e/kwok-pool.js';
import { nodeClaimKind, nodePoolKind } from '../packages/core/dist/apis/index.js';
import { SystemClock, SystemTimers } from '../packages/core/dist/clock/index.js';
import {
  ClientNodeCluster,
  kubeConfigFromFile,
  Namespaces,
  Pods,
  silentLogger,
} from '../packages/core/dist/kube/index.js';
import { createLogger, ensureCrds } from '../packages/core/dist/operator/index.js';
import { kwokNodeClassKind } from '../providers/kwok/dist/index.js';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/cli/dist/bin.js');
const Kinds =
  'pods,nodes,nodepools,nodeclaims,daemonsets,poddisruptionbudgets,persistentvolumeclaims,persistentvolumes,storageclasses';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Wall milliseconds of one command (its output saved to `stdoutFile`, if given); throws if it fails. */
function timeOnce(command: string, args: readonly string[], stdoutFile?: string): number {
  const start = performance.now();
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  if (stdoutFile !== undefined) writeFileSync(stdoutFile, run.stdout);
  return ms;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const pods = Number(option('--pods') ?? 1000);
  const repeat = Number(option('--repeat') ?? 5);
  const cluster = await startCluster({});
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-bench-why-'));
  try {
    const port = new ClientNodeCluster({
      kubeConfig: await kubeConfigFromFile(cluster.kubeconfigPath),
      fieldManager: 'bench-why',
      logger: silentLogger,
      clock: new SystemClock(),
      timers: new SystemTimers(),
    });
    await ensureCrds(
      {
        cluster: port,
        clock: new SystemClock(),
        timers: new SystemTimers(),
        logger: createLogger({ level: 'silent' }),
      },
      { kinds: [nodePoolKind, nodeClaimKind, kwokNodeClassKind], mode: 'install' },
    );
    await port.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    await applyKwokPool(
      port,
      {
        name: 'default',
        nodeClassSpec: {},
        requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['test-zone-a'] }],
      },
      'bench-why',
    );
    process.stderr.write(`[bench] creating ${pods} pending pods\n`);
    for (let i = 0; i < pods; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, pods - i) }, (_, j) =>
          port.create(Pods, {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `p-${i + j}`, namespace: 'bench' },
            spec: {
              // One in ten wants a zone the NodePool excludes: unschedulable, as `why` is asked about.
              ...((i + j) % 10 === 0
                ? { nodeSelector: { 'topology.kubernetes.io/zone': 'test-zone-d' } }
                : {}),
              containers: [
                { name: 'a', image: 'a', resources: { requests: { cpu: '250m', memory: '256Mi' } } },
              ],
            },
          } as never),
        ),
      );
    }
    const kc = cluster.kubeconfigPath;
    const dump = join(dir, 'cluster.yaml');
    const cases: Array<{ name: string; run: () => number }> = [
      {
        name: 'kubectl get -o yaml > FILE; schedule -f FILE (baseline)',
        run: () =>
          timeOnce('kubectl', ['--kubeconfig', kc, 'get', Kinds, '-A', '-o', 'yaml'], dump) +
          timeOnce(process.execPath, [bin, 'schedule', '-f', dump, '--catalog', 'kwok', '-o', 'json']),
      },
      {
        name: 'schedule --kubeconfig',
        run: () =>
          timeOnce(process.execPath, [
            bin,
            'schedule',
            '--kubeconfig',
            kc,
            '--catalog',
            'kwok',
            '-o',
            'json',
          ]),
      },
      {
        name: 'why pod bench/p-0',
        run: () =>
          timeOnce(process.execPath, [bin, 'why', 'pod', 'bench/p-0', '--kubeconfig', kc, '-o', 'json']),
      },
    ];
    const times = new Map(cases.map((c) => [c.name, [] as number[]]));
    for (let r = 0; r < repeat; r++) for (const c of cases) times.get(c.name)!.push(c.run());
    const base = median(times.get(cases[0]!.name)!);
    process.stdout.write(`${pods} pending pods, median of ${repeat} runs, wall time per answer:\n`);
    for (const c of cases) {
      const ms = median(times.get(c.name)!);
      process.stdout.write(
        `  ${c.name.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(2)}x baseline\n`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}

await main();
