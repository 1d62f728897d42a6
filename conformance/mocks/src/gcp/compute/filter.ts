import { invalid } from './errors.js';

interface Clause {
  readonly path: readonly string[];
  readonly op: '=' | '!=' | ':' | '>' | '<';
  readonly value: string;
}

const ClauseRe = /^\(?\s*([A-Za-z0-9_.-]+)\s*(=|!=|:|>|<)\s*("(?:[^"\\]|\\.)*"|[^\s)]+)\s*\)?$/;

/**
 * GCE list filters as the provider sends them: clauses `field = "v"`, `field != "v"`,
 * `field:*` (present), `field > "v"`, `field < "v"` (string order), optionally parenthesised,
 * joined by `AND` or by spaces. `labels.KEY` reaches into labels.
 * @throws GceError 400 for anything else, as GCE refuses a filter it cannot parse.
 */
export function parseFilter(filter: string | null): Clause[] {
  if (filter === null || filter.trim() === '') return [];
  const parts = filter
    .split(/\)\s*(?:AND\s*)?\(|\s+AND\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.map((part) => {
    const m = ClauseRe.exec(part);
    if (m === null) throw invalid(`'filter': '${filter}'. Invalid list filter expression.`);
    const raw = m[3]!;
    const value = raw.startsWith('"') ? JSON.parse(raw) : raw;
    return { path: m[1]!.split('.'), op: m[2] as Clause['op'], value };
  });
}

function lookup(resource: unknown, path: readonly string[]): unknown {
  let at: unknown = resource;
  const [head, ...rest] = path;
  // Label keys may contain dots' neighbours (`-`), never dots, so `labels.a-b` is one key.
  if (head === 'labels') return (at as { labels?: Record<string, string> }).labels?.[rest.join('.')];
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

/** Whether a resource passes every clause. */
export function matchesFilter(resource: unknown, clauses: readonly Clause[]): boolean {
  return clauses.every((c) => {
    const actual = lookup(resource, c.path);
    if (c.op === ':') return c.value === '*' ? actual !== undefined : String(actual ?? '').includes(c.value);
    const text = actual === undefined ? undefined : String(actual);
    switch (c.op) {
      case '=':
        return text === c.value;
      case '!=':
        return text !== c.value;
      case '>':
        return text !== undefined && text > c.value;
      case '<':
        return text !== undefined && text < c.value;
    }
    return false;
  });
}

/** One page of `items` for `maxResults` (500 by default, GCE's most) and `pageToken`. */
export function page<T>(
  items: readonly T[],
  params: URLSearchParams,
): { items: T[]; nextPageToken?: string } {
  const max = Math.min(Math.max(Number(params.get('maxResults') ?? 500) || 500, 1), 500);
  const token = params.get('pageToken');
  const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw invalid(`'pageToken': '${token}'`);
  const slice = items.slice(start, start + max);
  const next =
    start + max < items.length ? Buffer.from(String(start + max)).toString('base64url') : undefined;
  return next === undefined ? { items: slice } : { items: slice, nextPageToken: next };
}
