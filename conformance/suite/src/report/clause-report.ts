/** One checkable sentence of a suite: what a passing provider is known to do. */
export interface Clause {
  /** Stable id for reports and CI diffs, e.g. `create-cheapest`. */
  readonly id: string;
  /** The test's title: the clause as a sentence. */
  readonly title: string;
}

/** `not-run`: the clause was filtered out (`-t`) or its file stopped before it. */
export type ClauseState = 'passed' | 'failed' | 'skipped' | 'not-run';

export interface ClauseResult extends Clause {
  readonly state: ClauseState;
  readonly durationMs?: number;
  /** The first line of the first error, for a failed clause. */
  readonly error?: string;
}

/** Which clauses of one suite a provider passed, as written after the run. */
export interface ConformanceReport {
  /** `provider-contract` or `cluster-e2e`. */
  readonly suite: string;
  /** The harness's or target's name. */
  readonly provider: string;
  /** ISO time the report was written. */
  readonly finishedAt: string;
  readonly clauses: readonly ClauseResult[];
  readonly summary: Readonly<Record<ClauseState, number>> & { readonly total: number };
}

/** The report from the results recorded so far; clauses without one are `not-run`. */
export function buildReport(
  suite: string,
  provider: string,
  clauses: readonly Clause[],
  results: ReadonlyMap<string, Omit<ClauseResult, keyof Clause>>,
  finishedAt: Date,
): ConformanceReport {
  const rows: ClauseResult[] = clauses.map((c) => ({ ...c, ...(results.get(c.id) ?? { state: 'not-run' }) }));
  const count = (state: ClauseState) => rows.filter((r) => r.state === state).length;
  return {
    suite,
    provider,
    finishedAt: finishedAt.toISOString(),
    clauses: rows,
    summary: {
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      'not-run': count('not-run'),
      total: rows.length,
    },
  };
}

const Marks: Record<ClauseState, string> = {
  passed: 'pass',
  failed: 'FAIL',
  skipped: 'skip',
  'not-run': 'not run',
};

/** The report as a Markdown table, one row per clause, for a CI summary or a pull request. */
export function renderReportMarkdown(report: ConformanceReport): string {
  const { passed, total } = report.summary;
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const lines = [
    `# ${report.suite}: ${report.provider}`,
    '',
    `${passed} of ${total} clauses passed (${report.finishedAt}).`,
    '',
    '| clause | result | what it checks |',
    '| --- | --- | --- |',
    ...report.clauses.map(
      (c) =>
        `| \`${c.id}\` | ${Marks[c.state]} | ${cell(c.title)}${c.error === undefined ? '' : ` — ${cell(c.error)}`} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The file name stem of a report: `provider-contract-aws`. */
export function reportFileStem(report: Pick<ConformanceReport, 'suite' | 'provider'>): string {
  const provider = report.provider
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, '-')
    .replaceAll(/^-|-$/g, '');
  return `${report.suite}-${provider}`;
}
