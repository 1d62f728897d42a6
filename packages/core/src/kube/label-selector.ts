import type { LabelSelector } from '../apis/kubernetes/label-selector.js';

/**
 * Label selectors in both Kubernetes forms: the structured `metav1.LabelSelector`
 * (matchLabels + matchExpressions, typed and matched by apis/kubernetes) and the string form
 * lists and watches take (`app=web,tier in (a,b),!canary`). Both compile to the same
 * requirements, so a list can take either.
 */

/** One compiled requirement; `Gt`/`Lt` exist only in the string form. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values: readonly string[];
}

/** A compiled selector: all requirements must hold. `null` matches nothing. */
export type CompiledSelector = readonly LabelRequirement[] | null;

/** Raised for a selector the API server would reject. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}

/**
 * Compiles a structured selector. `undefined`/`null` compiles to "matches nothing", as
 * `LabelSelectorAsSelector(nil)` does; `{}` matches everything.
 */
export function compileLabelSelector(selector: LabelSelector | null | undefined): CompiledSelector {
  if (selector === undefined || selector === null) return null;
  const out: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    out.push({ key, operator: 'In', values: [value] });
  }
  for (const expr of selector.matchExpressions ?? []) {
    const values = expr.values ?? [];
    const operator: string = expr.operator;
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          throw new LabelSelectorError(`${expr.key}: values must be non-empty for operator ${expr.operator}`);
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          throw new LabelSelectorError(`${expr.key}: values must be empty for operator ${expr.operator}`);
        }
        break;
      default:
        throw new LabelSelectorError(
          `${expr.key}: ${String(expr.operator)} is not a valid selector operator`,
        );
    }
    out.push({ key: expr.key, operator: expr.operator, values: [...values] });
  }
  return out;
}

/** True when the labels satisfy every requirement. */
export function matchesCompiled(
  selector: CompiledSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (selector === null) return false;
  const set = labels ?? {};
  return selector.every((req) => matchesRequirement(req, set));
}

function matchesRequirement(req: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  switch (req.operator) {
    case 'In':
      return has && req.values.includes(value as string);
    case 'NotIn':
      return !has || !req.values.includes(value as string);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has) return false;
      const actual = Number.parseInt(value as string, 10);
      const bound = Number.parseInt(req.values[0] as string, 10);
      if (Number.isNaN(actual) || Number.isNaN(bound)) return false;
      return req.operator === 'Gt' ? actual > bound : actual < bound;
    }
  }
}

/**
 * Parses the string form: comma-separated `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k>n`, `k<n`. The empty string matches everything.
 */
export function parseLabelSelector(text: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  let pos = 0;
  const src = text;
  const skipSpace = () => {
    while (pos < src.length && /\s/.test(src[pos] as string)) pos++;
  };
  const readToken = (): string => {
    skipSpace();
    const start = pos;
    while (pos < src.length && !/[\s,!=<>()]/.test(src[pos] as string)) pos++;
    return src.slice(start, pos);
  };
  const fail = (why: string): never => {
    throw new LabelSelectorError(`unable to parse requirement in "${text}": ${why}`);
  };

  skipSpace();
  if (pos === src.length) return out;
  for (;;) {
    skipSpace();
    let negated = false;
    if (src[pos] === '!') {
      negated = true;
      pos++;
    }
    const key = readToken();
    if (key === '') fail('missing key');
    skipSpace();
    if (negated) {
      out.push({ key, operator: 'DoesNotExist', values: [] });
    } else if (pos >= src.length || src[pos] === ',') {
      out.push({ key, operator: 'Exists', values: [] });
    } else if (src.startsWith('==', pos) || src[pos] === '=') {
      pos += src.startsWith('==', pos) ? 2 : 1;
      out.push({ key, operator: 'In', values: [readToken()] });
    } else if (src.startsWith('!=', pos)) {
      pos += 2;
      out.push({ key, operator: 'NotIn', values: [readToken()] });
    } else if (src[pos] === '>' || src[pos] === '<') {
      const operator = src[pos] === '>' ? 'Gt' : 'Lt';
      pos++;
      const bound = readToken();
      if (!/^-?\d+$/.test(bound)) fail(`${key}: ${operator} needs an integer`);
      out.push({ key, operator, values: [bound] });
    } else {
      const word = readToken();
      if (word !== 'in' && word !== 'notin') fail(`${key}: unexpected "${word}"`);
      skipSpace();
      if (src[pos] !== '(') fail(`${key}: expected "("`);
      pos++;
      const values: string[] = [];
      for (;;) {
        values.push(readToken());
        skipSpace();
        if (src[pos] === ',') {
          pos++;
          continue;
        }
        if (src[pos] === ')') {
          pos++;
          break;
        }
        fail(`${key}: expected "," or ")"`);
      }
      out.push({ key, operator: word === 'in' ? 'In' : 'NotIn', values });
    }
    skipSpace();
    if (pos >= src.length) return out;
    if (src[pos] !== ',') fail(`unexpected "${src[pos]}"`);
    pos++;
  }
}

/** Renders a structured selector in the string form lists and watches accept. */
export function formatLabelSelector(selector: LabelSelector): string {
  const reqs = compileLabelSelector(selector) ?? [];
  return reqs.map(formatRequirement).join(',');
}

function formatRequirement(r: LabelRequirement): string {
  switch (r.operator) {
    case 'In':
      return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`;
    case 'NotIn':
      return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(',')})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    case 'Gt':
      return `${r.key}>${r.values[0]}`;
    case 'Lt':
      return `${r.key}<${r.values[0]}`;
  }
}
