// The operator under load on the real control plane (issue 14 item 3): the built controller
// (KWOK provider) as a Deployment runs it, `--pods N` pending pods at once (default 20,000; 10 a
// node, so about 2,000 KWOK nodes), then the workload scaled to a fifth and the nodes left to
// consolidation, while a kubelet's probes (every 1 s, 1 s timeout), a standby's Lease reads and
// a scraper of its /metrics watch it. Prints time to Running, nodes, time to consolidate, the
// exported event-loop delay, probe latencies, the Lease's worst renew age, controller CPU and
// RSS and kube-apiserver's request counts, and the event-loop delay of an idle process beside
// it (the machine's share of the delay). The CI-sized run is
// conformance/suite/operator-load-kwok.integration.test.ts.
//
//   pnpm bench:operator-load
//   node bench/operator-load.ts --pods 5000 [--pods-per-node 10] [--keep-fraction 0.2]
//     [--running-timeout S] [--consolidate-timeout S] [--keep] [--cpu-prof DIR]
//     [--node-flags "--max-semi-space-size=32 ..."] [--kwok-lease S]
//
// --kwok-lease S gives the KWOK nodes a Lease of S seconds (kube-controller-manager's grace period
// S + 40 s): at 1,500+ nodes kwok falls behind renewing 40 s Leases on two cores, and the nodes go
// NotReady under their pods. The controller is not what renews them.
// --node-flags runs the controller under those node flags; each one given replaces the default
// the controller would otherwise relaunch itself with (packages/cli/src/operator/node-flags.ts).
//
// --cpu-prof DIR profiles the controller (10 ms samples; written when it exits, also on a lost
// Lease, not when killed); bench/profile-stalls.ts lists what held its event loop longest.
import type { ControllerProcess } from '../conformance/suite/dist/e2e/controller-process.js';
import { startE2EEnvironment } from '../conformance/suite/dist/e2e/environment.js';
import { type IdleLoopProbe, startIdleLoopProbe } from '../conformance/suite/dist/e2e/idle-loop.js';
import {
  LoadComponentArgs,
  runOperatorLoad,
  startLoadController,
} from '../conformance/suite/dist/e2e/operator-load.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const pods = Math.round(option('--pods', 20_000));
const podsPerNode = Math.round(option('--pods-per-node', 10));
const keepFraction = option('--keep-fraction', 0.2);
const scale = Math.max(1, pods / 2_000);
// Bounds on each phase (seconds), so a run that cannot finish still reports its figures.
const runningTimeoutMs = option('--running-timeout', Math.min(1800, 360 * scale)) * 1000;
const consolidateTimeoutMs = option('--consolidate-timeout', Math.min(1200, 240 * scale)) * 1000;
const BinPath = new URL('../packages/cli/dist/bin.js', import.meta.url).pathname;
const progress = (line: string): void => {
  process.stderr.write(`[bench:operator-load] ${line}\n`);
};
const seconds = (ms: number | undefined) =>
  ms === undefined ? 'not reached' : `${(ms / 1000).toFixed(1)} s`;
const ms = (s: number | undefined) => (s === undefined ? 'n/a' : `${(s * 1000).toFixed(0)} ms`);

function withKwokLease(args: typeof LoadComponentArgs) {
  if (!process.argv.includes('--kwok-lease')) return args;
  const lease = Math.round(option('--kwok-lease', 40));
  return {
    ...args,
    kwok: [`--node-lease-duration-seconds=${lease}`],
    'kube-controller-manager': [
      ...args['kube-controller-manager'],
      `--node-monitor-grace-period=${lease + 40}s`,
    ],
  };
}

async function main(): Promise<void> {
  progress('starting the control plane');
  const env = await startE2EEnvironment({
    name: 'operator-load',
    componentArgs: withKwokLease(LoadComponentArgs),
    ...(process.argv.includes('--keep') ? { keep: true } : {}),
  });
  let controller: ControllerProcess | undefined;
  let idle: IdleLoopProbe | undefined;
  try {
    const profileAt = process.argv.indexOf('--cpu-prof');
    const profileDir = profileAt >= 0 ? process.argv[profileAt + 1] : undefined;
    if (profileAt >= 0 && (profileDir === undefined || profileDir.startsWith('--'))) {
      throw new Error('--cpu-prof needs a directory');
    }
    const flagsAt = process.argv.indexOf('--node-flags');
    const nodeFlags = flagsAt >= 0 ? (process.argv[flagsAt + 1] ?? '').split(/\s+/).filter(Boolean) : [];
    if (flagsAt >= 0 && nodeFlags.length === 0) throw new Error('--node-flags needs the flags, quoted');
    const nodeArgs = [
      ...nodeFlags,
      ...(profileDir === undefined
        ? []
        : ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '10000']),
    ];
    controller = await startLoadController(env, BinPath, nodeArgs);
    progress(`controller leads (logs ${env.workDir}/controller.log)`);
    // The control sample: an idle process's event loop over the same run, i.e. what waiting for
    // one of the machine's cores alone costs; the controller's figures above it are its own.
    idle = startIdleLoopProbe();
    const f = await runOperatorLoad(env, controller, {
      pods,
      podsPerNode,
      keepFraction,
      runningTimeoutMs,
      consolidateTimeoutMs,
      progress,
    });
    const machine = await idle.stop();
    idle = undefined;
    const lost = controller.entries().filter((e) => e.message === 'lost leadership').length;
    const rows: [string, string][] = [
      ['pods (CPU request each)', `${f.pods} (${f.podCpu})`],
      ['time to all Running', seconds(f.toRunningMs)],
      ['nodes at peak', String(f.nodesAtPeak)],
      ['pods kept / consolidation target', `${f.podsKept} / ${f.consolidationTarget} nodes`],
      ['time to consolidate (to 1.25 x target)', seconds(f.toConsolidatedMs)],
      ['nodes at the end', String(f.nodesAfter)],
      [
        'event-loop delay p50 / p99 / max (exported, whole run)',
        `${ms(f.eventLoop?.p50)} / ${ms(f.eventLoop?.p99)} / ${ms(f.eventLoop?.max)}`,
      ],
      ['highest p99 at any scrape', ms(f.eventLoopP99MaxSeconds)],
      [
        'event-loop delay p50 / p99 / max of an idle process beside it',
        `${ms(machine.p50)} / ${ms(machine.p99)} / ${ms(machine.max)}`,
      ],
      [
        'probes: made / failed / longest failed run',
        `${f.probes} / ${f.probeFailures} / ${f.maxConsecutiveProbeFailures}`,
      ],
      ['probe latency p99 / max', `${f.probeP99Ms.toFixed(0)} ms / ${f.probeMaxMs.toFixed(0)} ms`],
      [
        'Lease holders seen / worst renew age',
        `${f.holders.join(', ')} / ${(f.maxRenewAgeMs / 1000).toFixed(1)} s`,
      ],
      ['lost leadership / controller exit', `${lost} / ${f.controllerExit ?? 'none'}`],
      [
        'controller CPU / peak RSS',
        `${f.controllerCpuSeconds.toFixed(1)} s / ${f.controllerPeakRssMb.toFixed(0)} MB`,
      ],
      ['apiserver requests, scale-out (all clients)', f.apiserverRequests.scaleOut],
      ['apiserver requests, scale-in (all clients)', f.apiserverRequests.scaleIn],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
  } finally {
    await idle?.stop().catch(() => undefined);
    await controller?.stop();
    await env.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `[bench:operator-load] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
