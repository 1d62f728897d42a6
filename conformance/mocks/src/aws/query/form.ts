/**
 * A decoded EC2 Query request: `Filter.1.Name=a&Filter.1.Value.1=b` becomes
 * `{ Filter: [{ Name: 'a', Value: ['b'] }] }`. Numeric segments are 1-based list indices.
 */
export type QueryValue = string | QueryNode | QueryValue[];
export interface QueryNode {
  [key: string]: QueryValue;
}

/** Decodes a form-encoded EC2 Query body into nested structures, lists in index order. */
export function parseQueryForm(body: string): QueryNode {
  const root: QueryNode = {};
  for (const [key, value] of new URLSearchParams(body)) {
    assign(root, key.split('.'), value);
  }
  return compact(root) as QueryNode;
}

type Sparse = Record<string, unknown>;

function assign(root: Sparse, path: readonly string[], value: string): void {
  let node: Sparse = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] ?? '';
    const last = i === path.length - 1;
    if (last) {
      node[segment] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(path[i + 1] ?? '');
    const existing = node[segment];
    if (existing === undefined || typeof existing === 'string') {
      // Lists are kept as index-keyed objects until compaction so `.3` before `.1` still sorts.
      const created: Sparse = nextIsIndex ? { [LIST]: true } : {};
      node[segment] = created;
      node = created;
    } else {
      node = existing as Sparse;
    }
  }
}

const LIST = '__list__';

function compact(value: unknown): QueryValue {
  if (typeof value === 'string') return value;
  const node = value as Sparse;
  if (node[LIST]) {
    return Object.keys(node)
      .filter((k) => k !== LIST)
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => compact(node[String(k)]));
  }
  const out: QueryNode = {};
  for (const [k, v] of Object.entries(node)) out[k] = compact(v);
  return out;
}

/** The string at `key`, or undefined when absent or not a scalar. */
export function str(node: QueryNode | undefined, key: string): string | undefined {
  const v = node?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** The integer at `key`; throws a message naming the field when it is not a number. */
export function int(node: QueryNode | undefined, key: string): number | undefined {
  const v = str(node, key);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`${key}: '${v}' is not a number`);
  return n;
}

/** The boolean at `key` (`true`/`false`). */
export function bool(node: QueryNode | undefined, key: string): boolean | undefined {
  const v = str(node, key);
  return v === undefined ? undefined : v === 'true';
}

/** The structure at `key`, or undefined. */
export function struct(node: QueryNode | undefined, key: string): QueryNode | undefined {
  const v = node?.[key];
  return v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/** The list of structures at `key` (empty when absent). */
export function structs(node: QueryNode | undefined, key: string): QueryNode[] {
  const v = node?.[key];
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is QueryNode => typeof x === 'object' && !Array.isArray(x));
}

/** The list of strings at `key` (empty when absent). */
export function strs(node: QueryNode | undefined, key: string): string[] {
  const v = node?.[key];
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === 'string');
}
