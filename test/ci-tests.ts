// The test part of `pnpm run ci`: the unit and the integration projects as two vitest runs side
// by side. Run as one vitest process they took turns (vitest gives a 2-core machine one worker,
// and runs one project's files after the other's), so the unit project's minutes came on top of
// the integration project, which mostly waits on clusters, controllers and clocks. The unit run
// is not niced: its longest tests (the CLI fuzz test, 35 s alone, 120 s allowed) would starve
// while a cluster and a controller keep both cores busy. Its output is held and written in one
// block when it ends, while the integration run streams.
import { runSideBySide } from './side-by-side.ts';

const vitestArgs = (project: string) => ['run', '--project', project];
const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => abort.abort());

const { code } = await runSideBySide(
  [
    { name: 'integration', held: false, command: 'vitest', args: vitestArgs('integration') },
    { name: 'unit', held: true, command: 'vitest', args: vitestArgs('unit') },
  ],
  {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    nowMs: () => Date.now(),
    signal: abort.signal,
  },
);
process.exitCode = code;
