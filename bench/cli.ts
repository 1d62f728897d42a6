// CLI startup and input benchmark: `nodewright --help`, `validate` of one small file and
// `schedule` on Karpenter's 5,000-pod benchmark input, end to end as a user runs them, each
// beside `node -e 0` timed in the same run. Run with `pnpm bench:cli` (builds first); `--cpu`
// adds each command's CPU time. See README.md.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { karpenterCliInput } from './karpenter-benchmark.ts';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/cli/dist/bin.js');

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  /** The figure the issue asks for, in milliseconds. */
  readonly targetMs?: number;
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// With --cpu, each child also reports its CPU time (user + system, all its threads) on exit:
// on a shared machine wall time measures the load as much as the command, CPU time far less.
const CpuReport = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu-us '+(u.user+u.system)+'\\n')})`;

interface Sample {
  readonly ms: number;
  /** CPU milliseconds, with --cpu. */
  readonly cpuMs?: number;
}

/** One run of the project's node on argv: wall (and CPU) milliseconds; throws if it fails. */
function timeOnce(argv: readonly string[], cpu: boolean): Sample {
  const args = cpu ? ['--import', CpuReport, ...argv] : argv;
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${run.status}: ${run.stderr}`);
  if (!cpu) return { ms };
  const reported = /cpu-us (\d+)\s*$/.exec(run.stderr);
  if (reported === null) throw new Error(`node ${argv.join(' ')} reported no CPU time: ${run.stderr}`);
  return { ms, cpuMs: Number(reported[1]) / 1000 };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const repeat = Number(option('--repeat') ?? 7);
  const podCount = Number(option('--pods') ?? 5000);
  // Another checkout's build (e.g. a worktree at an older commit), timed in the same rounds.
  const compare = option('--compare');
  const cpu = process.argv.includes('--cpu');
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-bench-cli-'));
  try {
    const input = karpenterCliInput(podCount);
    const pods = join(dir, 'pods.json');
    const nodePool = join(dir, 'nodepool.json');
    const catalog = join(dir, 'catalog.json');
    await writeFile(pods, JSON.stringify(input.pods));
    await writeFile(nodePool, JSON.stringify(input.nodePool));
    await writeFile(catalog, JSON.stringify(input.catalog));
    const cliCases = (cli: string, label: string): Case[] => [
      { name: `nodewright --help${label}`, argv: [cli, '--help'], targetMs: 150 },
      {
        name: `validate (one small file)${label}`,
        argv: [cli, 'validate', '-f', join(root, 'examples/nodepools/aws/general-purpose.yaml')],
        targetMs: 300,
      },
      {
        name: `schedule (${podCount.toLocaleString('en-US')} pods, JSON)${label}`,
        argv: [cli, 'schedule', '-f', pods, '-f', nodePool, '--catalog', catalog, '-o', 'json'],
        targetMs: 1000,
      },
    ];
    const cases: Case[] = [
      { name: 'node -e 0', argv: ['-e', '0'] },
      ...cliCases(bin, ''),
      ...(compare === undefined
        ? []
        : cliCases(join(resolve(compare), 'packages/cli/dist/bin.js'), ` [${compare}]`)),
    ];
    // Interleaved rounds, so a burst of load on a shared machine hits every case alike.
    const samples = cases.map(() => [] as Sample[]);
    for (const c of cases) timeOnce(c.argv, cpu); // warm the file cache and node's compile cache
    for (let r = 0; r < repeat; r++) {
      process.stderr.write(`round ${r + 1}/${repeat}\n`);
      for (const [i, c] of cases.entries()) samples[i]!.push(timeOnce(c.argv, cpu));
    }
    const wall = samples.map((xs) => xs.map((x) => x.ms));
    const cpuMs = samples.map((xs) => xs.map((x) => x.cpuMs ?? 0));
    const base = median(wall[0]!);
    const cpuBase = median(cpuMs[0]!);
    const rows = cases.map((c, i) => {
      const ms = median(wall[i]!);
      const target =
        c.targetMs === undefined ? '' : `< ${c.targetMs} ms: ${ms < c.targetMs ? 'met' : 'NOT met'}`;
      const cpuCells = cpu ? [median(cpuMs[i]!).toFixed(0), (median(cpuMs[i]!) / cpuBase).toFixed(1)] : [];
      return [
        c.name,
        ms.toFixed(0),
        (ms / base).toFixed(1),
        Math.min(...wall[i]!).toFixed(0),
        ...cpuCells,
        target,
      ];
    });
    const header = [
      'case',
      'median ms',
      'x node -e 0',
      'min ms',
      ...(cpu ? ['median CPU ms', 'CPU x node -e 0'] : []),
      'target',
    ];
    const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j]!.length)));
    const line = (cells: readonly string[]) =>
      cells
        .map((cell, j) =>
          j === 0 || j === header.length - 1 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!),
        )
        .join('  ');
    process.stdout.write(
      `${[line(header), ...rows.map(line)].join('\n')}\n(${repeat} interleaved runs each after one warm-up; node ${process.versions.node})\n`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
