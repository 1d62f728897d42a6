import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, it, onTestFinished } from 'vitest';
import {
  buildReport,
  type Clause,
  type ClauseResult,
  renderReportMarkdown,
  reportFileStem,
} from './clause-report.js';

/** Where a suite writes its clause report after the run. */
export interface ReportOptions {
  /**
   * Directory for `<suite>-<provider>.json` and `.md` (created if missing), written when the
   * suite's describe block ends, whether its clauses passed or not.
   */
  readonly dir: string;
}

/**
 * Declares a suite's clauses as vitest tests and, with `report`, writes which passed. Call
 * inside the suite's `describe`; `clause(id, fn, timeoutMs?)` registers the test titled by that
 * clause.
 */
export function clauseRecorder(
  suite: string,
  provider: string,
  clauses: readonly Clause[],
  report: ReportOptions | undefined,
): (id: string, fn: () => Promise<void> | void, timeoutMs?: number) => void {
  const byId = new Map(clauses.map((c) => [c.id, c]));
  const results = new Map<string, Omit<ClauseResult, keyof Clause>>();
  if (report !== undefined) {
    afterAll(async () => {
      const built = buildReport(suite, provider, clauses, results, new Date());
      await mkdir(report.dir, { recursive: true });
      const stem = join(report.dir, reportFileStem(built));
      await writeFile(`${stem}.json`, `${JSON.stringify(built, null, 2)}\n`);
      await writeFile(`${stem}.md`, renderReportMarkdown(built));
    });
  }
  return (id, fn, timeoutMs) => {
    const clause = byId.get(id);
    if (clause === undefined) throw new Error(`${suite}: clause ${id} is not in the clause list`);
    it(
      clause.title,
      async () => {
        const started = performance.now();
        onTestFinished(({ task }) => {
          const errors = task.result?.errors ?? [];
          const first = errors[0]?.message?.split('\n')[0];
          results.set(id, {
            state: errors.length > 0 || task.result?.state === 'fail' ? 'failed' : 'passed',
            durationMs: Math.round(performance.now() - started),
            ...(first === undefined ? {} : { error: first }),
          });
        });
        await fn();
      },
      timeoutMs,
    );
  };
}
