import { describe, expect, it } from 'vitest';
import { type JobResult, runSideBySide, type SideJob, summaryLine } from './side-by-side.js';

const node = process.execPath;
const script = (code: string): Pick<SideJob, 'command' | 'args'> => ({ command: node, args: ['-e', code] });

function recorder() {
  const out: string[] = [];
  const err: string[] = [];
  let t = 0;
  return {
    out,
    err,
    io: {
      out: (s: string) => out.push(s),
      err: (s: string) => err.push(s),
      // Each reading of the clock is 1 s later: every job lasts a whole number of seconds.
      nowMs: () => (t += 1000),
    },
  };
}

describe('runSideBySide', () => {
  it('streams the free job, writes the held one as one block after it ends, and fails if either fails', async () => {
    const r = recorder();
    const { results, code } = await runSideBySide(
      [
        {
          name: 'integration',
          held: false,
          ...script("process.stdout.write('i-out\\n'); process.stderr.write('i-err\\n')"),
        },
        {
          name: 'unit',
          held: true,
          ...script(
            "process.stdout.write('u-1\\n'); setTimeout(() => { process.stderr.write('u-2\\n'); process.exit(3); }, 50)",
          ),
        },
      ],
      r.io,
    );
    expect(code).toBe(1);
    expect(results.map((x) => [x.name, x.code])).toEqual([
      ['integration', 0],
      ['unit', 3],
    ]);
    expect(r.err).toEqual(['i-err\n']);
    const out = r.out.join('');
    // The held job's lines come together, in the order written, under their header.
    expect(out).toMatch(/\[unit\] exit 3 after \d+ s; its output:\nu-1\nu-2\n/);
    expect(out.indexOf('i-out')).toBeLessThan(out.indexOf('[unit] exit 3'));
    // One summary line per job, in the order given, at the end.
    expect(out.trimEnd().split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^\[integration\] exit 0 after \d+ s$/),
      expect.stringMatching(/^\[unit\] exit 3 after \d+ s$/),
    ]);
  });

  it('is 0 only when every job exited 0', async () => {
    const r = recorder();
    const { code } = await runSideBySide(
      [
        { name: 'a', held: true, ...script('') },
        { name: 'b', held: false, ...script('') },
      ],
      r.io,
    );
    expect(code).toBe(0);
  });

  it('reports a command that cannot start, and fails', async () => {
    const r = recorder();
    const { results, code } = await runSideBySide(
      [{ name: 'x', held: true, command: '/nonexistent/command', args: [] }],
      r.io,
    );
    expect(code).toBe(1);
    expect(results[0]?.error).toMatch(/ENOENT/);
    expect(r.out.join('')).toMatch(/\[x\] could not start: .*ENOENT/);
  });

  it('an abort ends the jobs still running with SIGTERM', async () => {
    const r = recorder();
    const abort = new AbortController();
    const run = runSideBySide([{ name: 'long', held: false, ...script('setTimeout(() => {}, 60_000)') }], {
      ...r.io,
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 100);
    const { results, code } = await run;
    expect(code).toBe(1);
    expect(results[0]?.signal).toBe('SIGTERM');
  });
});

describe('summaryLine', () => {
  const base: JobResult = { name: 'unit', code: 0, signal: null, seconds: 311.6 };
  it('says how the job ended and how long it took', () => {
    expect(summaryLine(base)).toBe('[unit] exit 0 after 312 s');
    expect(summaryLine({ ...base, code: null, signal: 'SIGKILL' })).toBe(
      '[unit] ended by SIGKILL after 312 s',
    );
    expect(summaryLine({ ...base, code: null, error: 'spawn x ENOENT' })).toBe(
      '[unit] could not start: spawn x ENOENT after 312 s',
    );
  });
});
