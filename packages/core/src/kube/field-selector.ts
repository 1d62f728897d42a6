/**
 * Field selectors (`spec.nodeName=node-1,metadata.namespace!=kube-system`). The API server
 * supports only a fixed set of fields per kind; anything else is a 400.
 */

/** One `field=value` or `field!=value` term. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Raised for a selector the API server would reject. */
export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError';
}

/** Parses the string form; `\,` `\=` `\\` escape separators inside values. Empty matches all. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (text.trim() === '') return out;
  for (const term of splitUnescaped(text, ',')) {
    const at = findOperatorIndex(term);
    if (at < 0) throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    const op = term.startsWith('!=', at) ? '!=' : term.startsWith('==', at) ? '==' : '=';
    const field = term.slice(0, at).trim();
    if (field === '') throw new FieldSelectorError(`invalid selector: '${text}'; missing field in '${term}'`);
    out.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeValue(term.slice(at + op.length)) });
  }
  return out;
}

/**
 * True when every term holds. `fieldValue` returns the object's value for a field
 * (`undefined` when the kind does not support it, which is an error).
 */
export function matchesFieldSelector(
  reqs: readonly FieldRequirement[],
  fieldValue: (field: string) => string | undefined,
): boolean {
  return reqs.every((req) => {
    const actual = fieldValue(req.field);
    if (actual === undefined) throw new FieldSelectorError(`field label not supported: ${req.field}`);
    return req.operator === '=' ? actual === req.value : actual !== req.value;
  });
}

function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + (text[i + 1] as string);
      i++;
    } else if (ch === sep) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/** Index of the first unescaped operator (`!=`, `==` or `=`) in a term, or -1. */
function findOperatorIndex(term: string): number {
  for (let i = 0; i < term.length; i++) {
    const ch = term[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '=' || (ch === '!' && term[i + 1] === '=')) return i;
  }
  return -1;
}

function unescapeValue(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}
