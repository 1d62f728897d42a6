import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport, renderReportMarkdown, reportFileStem } from './clause-report.js';
import { clauseRecorder } from './record-clauses.js';

const clauses = [
  { id: 'a', title: 'does a' },
  { id: 'b', title: 'does b | with a pipe' },
  { id: 'c', title: 'does c' },
];

describe('buildReport', () => {
  it('gives every clause a state, not-run where nothing was recorded, and counts them', () => {
    const report = buildReport(
      'provider-contract',
      'My Cloud (mock)',
      clauses,
      new Map([
        ['a', { state: 'passed' as const, durationMs: 12 }],
        ['b', { state: 'failed' as const, durationMs: 3, error: 'expected 1 to be 2' }],
      ]),
      new Date('2026-01-02T03:04:05Z'),
    );
    expect(report.clauses.map((c) => [c.id, c.state])).toEqual([
      ['a', 'passed'],
      ['b', 'failed'],
      ['c', 'not-run'],
    ]);
    expect(report.summary).toEqual({ passed: 1, failed: 1, skipped: 0, 'not-run': 1, total: 3 });
    expect(reportFileStem(report)).toBe('provider-contract-my-cloud-mock');
    expect(renderReportMarkdown(report)).toBe(
      [
        '# provider-contract: My Cloud (mock)',
        '',
        '1 of 3 clauses passed (2026-01-02T03:04:05.000Z).',
        '',
        '| clause | result | what it checks |',
        '| --- | --- | --- |',
        '| `a` | pass | does a |',
        '| `b` | FAIL | does b \\| with a pipe — expected 1 to be 2 |',
        '| `c` | not run | does c |',
        '',
      ].join('\n'),
    );
  });
});

const dir = join(tmpdir(), `nodewright-clauses-${process.pid}`);

describe('clauseRecorder', () => {
  const clause = clauseRecorder('demo', 'rec', clauses, { dir });
  clause('a', () => {
    expect(1).toBe(1);
  });
  clause('c', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
  });
  it('refuses a clause id not in its list', () => {
    expect(() => clause('zzz', () => {})).toThrow('demo: clause zzz is not in the clause list');
  });
});

describe('the report clauseRecorder wrote', () => {
  afterAll(() => rm(dir, { recursive: true, force: true }));
  it('lists the clauses that ran as passed and the one that did not as not-run', async () => {
    const report = JSON.parse(await readFile(join(dir, 'demo-rec.json'), 'utf8'));
    expect(report.clauses.map((c: { id: string; state: string }) => [c.id, c.state])).toEqual([
      ['a', 'passed'],
      ['b', 'not-run'],
      ['c', 'passed'],
    ]);
    expect(await readFile(join(dir, 'demo-rec.md'), 'utf8')).toContain('2 of 3 clauses passed');
  });
});
