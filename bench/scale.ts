// Scale benchmark, offline part (issue 18, item 2): `disrupt` on a generated cluster of 10,000
// nodes / 100,000 pods and `schedule` of 100,000 pending pods, each a fresh process of the CLI
// as a user runs it, printing wall time, CPU time and peak RSS, and the wall time as a ratio to
// the calibration workload (bench/calibration.ts) timed in the same run. Run with
// `pnpm bench:scale` (builds first). See README.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { calibrate } from './calibration.ts';
import { listJson, pendingPods, ScaleNow, scaleCluster, scaleNodePool } from './scale-cluster.ts';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/cli/dist/bin.js');

// Loaded into the measured process: at exit it writes its own resource usage to stderr (a pipe,
// written synchronously on Linux), so peak RSS is the CLI's, not this script's.
const UsageMarker = '@@usage ';
const UsageHook = `data:text/javascript,${encodeURIComponent(
  `import { writeSync } from 'node:fs';
process.on('exit', () => {
  const r = process.resourceUsage();
  writeSync(2, '\\n${UsageMarker}' + JSON.stringify({ maxRssKiB: r.maxRSS, cpuUs: r.userCPUTime + r.systemCPUTime }) + '\\n');
});`,
)}`;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Measured {
  readonly wallS: number;
  readonly cpuS: number;
  readonly rssMiB: number;
  readonly stdout: string;
}

/** One run of the project's node on argv with the usage hook; throws if it fails. */
function measure(argv: readonly string[]): Measured {
  const start = performance.now();
  const run = spawnSync(process.execPath, [`--import=${UsageHook}`, ...argv], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const wallS = (performance.now() - start) / 1000;
  if (run.status !== 0)
    throw new Error(`node ${argv.join(' ')} exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith(UsageMarker));
  if (line === undefined) throw new Error(`no resource usage from node ${argv.join(' ')}`);
  const usage = JSON.parse(line.slice(UsageMarker.length)) as { maxRssKiB: number; cpuUs: number };
  return { wallS, cpuS: usage.cpuUs / 1e6, rssMiB: usage.maxRssKiB / 1024, stdout: run.stdout };
}

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly targetS: number;
  readonly targetRssMiB?: number;
  /** What the run decided, in a few words, so a fast wrong answer shows. */
  readonly outcome: (stdout: string) => string;
}

function disruptOutcome(stdout: string): string {
  // cutShort is absent from builds before the time budgets (a --compare baseline).
  const report = JSON.parse(stdout) as {
    commands: Array<{ method: string; candidates: string[] }>;
    cutShort?: Array<{ method: string }>;
  };
  const command = report.commands[0];
  const decided =
    command === undefined ? 'no command' : `${command.method}, ${command.candidates.length} nodes`;
  const cut = report.cutShort ?? [];
  return cut.length === 0 ? decided : `${decided}; cut short: ${cut.map((c) => c.method).join(', ')}`;
}

function scheduleOutcome(stdout: string): string {
  const report = JSON.parse(stdout) as { nodeClaims: unknown[]; unschedulable: unknown[] };
  return `${report.nodeClaims.length} NodeClaims, ${report.unschedulable.length} unschedulable`;
}

function main(): void {
  const nodes = Number(option('--nodes') ?? 10_000);
  const pods = Number(option('--pods') ?? 100_000);
  const pending = Number(option('--pending') ?? pods);
  const repeat = Number(option('--repeat') ?? 1);
  const keep = option('--keep');
  // Another checkout's build (e.g. a worktree at an older commit), run on the same files.
  const compare = option('--compare');
  const dir = keep === undefined ? mkdtempSync(join(tmpdir(), 'nodewright-bench-scale-')) : resolve(keep);
  mkdirSync(dir, { recursive: true });
  try {
    const genStart = performance.now();
    const cluster = join(dir, 'cluster.json');
    const pendingFile = join(dir, 'pending.json');
    writeFileSync(cluster, listJson(scaleCluster({ nodes, pods })));
    writeFileSync(pendingFile, listJson([scaleNodePool(), ...pendingPods(pending)]));
    const genS = (performance.now() - genStart) / 1000;
    process.stderr.write(`generated ${dir} in ${genS.toFixed(1)} s\n`);
    const n = (x: number) => x.toLocaleString('en-US');
    const casesOf = (cli: string, label: string): Case[] => [
      {
        name: `disrupt, ${n(nodes)} nodes / ${n(pods)} pods${label}`,
        argv: [cli, 'disrupt', '-f', cluster, '--catalog', 'kwok', '--now', ScaleNow, '-o', 'json'],
        targetS: 10,
        targetRssMiB: 2048,
        outcome: disruptOutcome,
      },
      {
        name: `schedule, ${n(pending)} pending pods${label}`,
        argv: [cli, 'schedule', '-f', pendingFile, '--catalog', 'kwok', '-o', 'json'],
        targetS: 10,
        outcome: scheduleOutcome,
      },
    ];
    const cases = [
      ...(compare === undefined
        ? []
        : casesOf(join(resolve(compare), 'packages/cli/dist/bin.js'), ` [${compare}]`)),
      ...casesOf(bin, ''),
    ];
    const before = calibrate();
    const runs = cases.map((c) => {
      const samples: Measured[] = [];
      for (let r = 0; r < repeat; r++) {
        process.stderr.write(`${c.name}: run ${r + 1}/${repeat}\n`);
        samples.push(measure(c.argv));
      }
      samples.sort((a, b) => a.wallS - b.wallS);
      return samples[Math.floor(samples.length / 2)]!;
    });
    const calibrationS = Math.min(before, calibrate());
    const rows = cases.map((c, i) => {
      const m = runs[i]!;
      const met = m.wallS < c.targetS && (c.targetRssMiB === undefined || m.rssMiB < c.targetRssMiB);
      const target = `< ${c.targetS} s${c.targetRssMiB === undefined ? '' : `, < ${c.targetRssMiB / 1024} GiB`}`;
      return [
        c.name,
        m.wallS.toFixed(2),
        m.cpuS.toFixed(2),
        m.rssMiB.toFixed(0),
        (m.wallS / calibrationS).toFixed(0),
        `${target}: ${met ? 'met' : 'NOT met'}`,
        c.outcome(m.stdout),
      ];
    });
    const header = ['case', 'wall s', 'cpu s', 'peak RSS MiB', 'x calib', 'target', 'decided'];
    const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j]!.length)));
    const left = new Set([0, 5, 6]);
    const line = (cells: readonly string[]) =>
      cells
        .map((cell, j) => (left.has(j) ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!)))
        .join('  ')
        .trimEnd();
    process.stdout.write(
      `${[line(header), ...rows.map(line)].join('\n')}\n` +
        `(median of ${repeat} by wall time; calibration ${calibrationS.toFixed(3)} s; generator ${genS.toFixed(1)} s; node ${process.versions.node})\n`,
    );
  } finally {
    if (keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

main();
