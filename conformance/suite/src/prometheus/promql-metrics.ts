// PromQL words that are not metric names: aggregation and binary operators, modifiers and
// the literals Prometheus accepts. Functions are told apart by the "(" that follows them.
const Keywords = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects, in order of first use. Label matchers,
 * grouping label lists, strings, durations and numbers are not names; neither are function and
 * aggregation names (a word followed by "("). Enough PromQL for dashboards, not a full parser.
 */
export function promqlMetricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = match[0];
    const after = stripped.slice((match.index ?? 0) + word.length).trimStart();
    if (after.startsWith('(')) continue;
    // A number's exponent (1e6) is not a name.
    const before = stripped[(match.index ?? 0) - 1];
    if (before !== undefined && /[0-9.]/.test(before)) continue;
    if (Keywords.has(word.toLowerCase())) continue;
    if (!names.includes(word)) names.push(word);
  }
  return names;
}
