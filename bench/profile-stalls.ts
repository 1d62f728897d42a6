// What held the event loop longest in a CPU profile (`node --cpu-prof`, e.g. the controller of
// `node bench/operator-load.ts --cpu-prof DIR`). A stall is a run of samples with no `(idle)`
// sample between them: the loop was busy the whole time, so timers, probes and Lease renewals
// waited. Prints the longest stalls, when each began (seconds into the profile), and the
// functions that held it (self time, and time with their callees, top entries).
//
//   node bench/profile-stalls.ts FILE.cpuprofile [--top 10] [--min-ms 200]
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const file = process.argv[2];
if (file === undefined || file.startsWith('--')) {
  process.stderr.write('usage: node bench/profile-stalls.ts FILE.cpuprofile [--top N] [--min-ms MS]\n');
  process.exit(2);
}
const top = option('--top', 10);
const minMs = option('--min-ms', 200);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
const isIdle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';

interface Stall {
  readonly startMs: number;
  ms: number;
  readonly samples: { id: number; ms: number }[];
}
const stalls: Stall[] = [];
let at = 0;
let current: Stall | undefined;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]!;
  // A sample's delta is the time since the one before: that interval is charged to this sample.
  const delta = (profile.timeDeltas[i] ?? 0) / 1000;
  at += delta;
  if (isIdle(id)) {
    if (current !== undefined && current.ms >= minMs) stalls.push(current);
    current = undefined;
    continue;
  }
  if (current === undefined) current = { startMs: at - delta, ms: 0, samples: [] };
  current.ms += delta;
  current.samples.push({ id, ms: delta });
}
if (current !== undefined && current.ms >= minMs) stalls.push(current);

const totalMs = at;
const busyMs = stalls.reduce((sum, s) => sum + s.ms, 0);
process.stdout.write(
  `${file}: ${(totalMs / 1000).toFixed(1)} s profiled; ${stalls.length} stalls of ${minMs} ms or more, ` +
    `${(busyMs / 1000).toFixed(1)} s in all\n`,
);
const ranked = [...stalls].sort((a, b) => b.ms - a.ms).slice(0, top);
for (const stall of ranked) {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const { id, ms } of stall.samples) {
    const node = byId.get(id);
    if (node === undefined) continue;
    self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (frame === undefined || frame.functionName === '(root)') continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const list = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `      ${v.toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  process.stdout.write(
    `\n${stall.ms.toFixed(0)} ms stall at ${(stall.startMs / 1000).toFixed(1)} s\n` +
      `   self:\n${list(self, 8)}\n   with callees:\n${list(inclusive, 16)}\n`,
  );
}
