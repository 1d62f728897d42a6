import type { SchemaNode } from '@nodewright/core/apis';
import type { ServerCause } from './server-rejection.js';

/**
 * How a server error says what nodewright says: word for word (a CEL rule carrying
 * nodewright's message), or in the API server's own words for the OpenAPI keyword that
 * implements the same rule (`how` names the keyword).
 */
export type Agreement = { readonly kind: 'same' } | { readonly kind: 'equivalent'; readonly how: string };

interface Translation {
  readonly how: string;
  /** Matches nodewright's message; its groups carry the values the server must repeat. */
  readonly expected: RegExp;
  readonly server: (groups: RegExpExecArray, cause: ServerCause, schema: SchemaNode | undefined) => boolean;
}

const includes = (cause: ServerCause, text: string): boolean => cause.message.includes(text);

/** `text` then the number `n`, not the start of a longer number (10 is not 100). */
function endsWithNumber(cause: ServerCause, text: string, n: string | undefined): boolean {
  if (n === undefined) return false;
  const at = cause.message.indexOf(`${text} ${n}`);
  return at >= 0 && !/^[0-9.]/.test(cause.message.slice(at + text.length + 1 + n.length));
}

/** `"A", "B"` (the server's list of supported values) as a set of strings. */
function supportedValues(cause: ServerCause): Set<string> | undefined {
  const list = /supported values: (.*)$/.exec(cause.message)?.[1];
  if (list === undefined) return undefined;
  return new Set([...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? ''));
}

function sameSet(a: Set<string> | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.size === new Set(b).size && b.every((v) => a.has(v));
}

/**
 * The OpenAPI keywords the CRD generator emits, each with the words the API server uses when
 * it fails and the nodewright message meaning the same. Numbers and value lists must match,
 * so `must be at most 50` only agrees with a maximum of 50.
 */
const Translations: readonly Translation[] = [
  {
    how: 'minimum',
    expected: /^must be at least (-?\d+)$/,
    server: (m, c) => endsWithNumber(c, 'should be greater than or equal to', m[1]),
  },
  {
    how: 'minimum 0',
    expected: /^must not be negative$/,
    server: (_, c) => endsWithNumber(c, 'should be greater than or equal to', '0'),
  },
  {
    how: 'maximum',
    expected: /^must be at most (-?\d+)$/,
    server: (m, c) => endsWithNumber(c, 'should be less than or equal to', m[1]),
  },
  {
    how: 'maxItems/maxProperties',
    expected: /^must have at most (\d+) [a-z ]+$/,
    server: (m, c) => c.reason === 'FieldValueTooMany' && includes(c, `must have at most ${m[1]} items`),
  },
  {
    how: 'minItems',
    expected: /^must have at least one [a-z ]+$/,
    server: (_, c) => includes(c, 'should have at least 1 items'),
  },
  {
    how: 'minLength',
    expected: /^must not be empty$/,
    server: (_, c) => includes(c, 'should be at least 1 chars long'),
  },
  {
    how: 'maxLength',
    expected: /^must be at most (\d+) characters long$/,
    server: (m, c) => c.reason === 'FieldValueTooLong' && includes(c, `may not be more than ${m[1]} bytes`),
  },
  {
    how: 'enum',
    expected: /^must be one of (.+)$/,
    server: (m, c) =>
      c.reason === 'FieldValueNotSupported' && sameSet(supportedValues(c), (m[1] ?? '').split(', ')),
  },
  {
    how: 'enum',
    expected: /^must be ([A-Z][A-Za-z0-9]*)$/,
    server: (m, c) => c.reason === 'FieldValueNotSupported' && sameSet(supportedValues(c), [m[1] ?? '']),
  },
  {
    how: 'type integer',
    expected: /^must be an integer$/,
    server: (_, c) => c.reason === 'FieldValueTypeInvalid' && includes(c, 'must be of type integer'),
  },
  {
    how: 'type string',
    expected: /^must be a string\b/,
    server: (_, c) => c.reason === 'FieldValueTypeInvalid' && includes(c, 'must be of type string'),
  },
  {
    how: 'format date-time',
    expected: /^must be an RFC 3339 date-time\b/,
    server: (_, c) => includes(c, 'must be of type date-time'),
  },
  {
    how: 'required',
    expected: /^(?:[a-z]+ )?is required$/,
    server: (_, c) => c.reason === 'FieldValueRequired',
  },
  {
    how: 'x-kubernetes-list-type: set',
    expected: /^lists (.+) twice$/,
    server: (m, c) => c.reason === 'FieldValueDuplicate' && includes(c, `Duplicate value: "${m[1]}"`),
  },
  {
    how: 'x-kubernetes-list-type: map',
    expected: /^condition type (\S+) appears more than once$/,
    server: (m, c) => c.reason === 'FieldValueDuplicate' && includes(c, `"type":"${m[1]}"`),
  },
  {
    how: 'metadata.name (server-side)',
    expected: /^must be a DNS subdomain\b/,
    server: (_, c) => includes(c, 'RFC 1123 subdomain'),
  },
  {
    how: 'strict decoding (fieldValidation=Strict)',
    expected: /^unknown field "[^"]+"$/,
    server: (_, c) => c.reason === 'FieldValueUnknown',
  },
  {
    // The schema's own regular expression: the words differ, the rule is the field's pattern.
    how: 'pattern',
    expected: /^/,
    server: (_, c, schema) =>
      typeof schema?.pattern === 'string' && includes(c, `should match '${schema.pattern}'`),
  },
];

/**
 * Whether `cause` says what nodewright's `expected` message says; undefined when it does
 * not. `schema` is the CRD schema node of the field, to check a pattern failure names that
 * field's own pattern.
 */
export function messageAgreement(
  expected: string,
  cause: ServerCause,
  schema?: SchemaNode,
): Agreement | undefined {
  if (cause.message.includes(expected)) return { kind: 'same' };
  for (const translation of Translations) {
    const groups = translation.expected.exec(expected);
    if (groups !== null && translation.server(groups, cause, schema)) {
      return { kind: 'equivalent', how: translation.how };
    }
  }
  return undefined;
}
