import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FieldError,
  fieldErrors,
  formatFieldPath,
  formatObjectError,
  parseFieldPath,
} from './field-errors.js';

function errorsOf(schema: z.ZodType, input: unknown, reportInput = false): Array<[string, string]> {
  const result = schema.safeParse(input, { reportInput });
  if (result.success) throw new Error('expected the input to be rejected');
  return fieldErrors(result.error.issues).map((e: FieldError) => [e.path, e.message]);
}

describe('formatFieldPath', () => {
  it('joins identifier keys with dots and indices with brackets', () => {
    expect(formatFieldPath(['spec', 'template', 'spec', 'requirements', 1, 'values'])).toBe(
      'spec.template.spec.requirements[1].values',
    );
  });

  it('quotes keys that are not identifiers, such as label keys', () => {
    expect(formatFieldPath(['metadata', 'labels', 'karpenter.sh/nodepool'])).toBe(
      'metadata.labels["karpenter.sh/nodepool"]',
    );
    expect(formatFieldPath(['a', ''])).toBe('a[""]');
  });

  it('renders the empty path as the empty string and a leading index without a dot', () => {
    expect(formatFieldPath([])).toBe('');
    expect(formatFieldPath([0, 'name'])).toBe('[0].name');
  });
});

describe('parseFieldPath', () => {
  it('reads back what formatFieldPath writes', () => {
    const paths: PropertyKey[][] = [
      ['spec', 'template', 'spec', 'requirements', 1, 'values'],
      ['metadata', 'labels', 'karpenter.sh/nodepool'],
      ['a', 'quote"and\\back', 0],
      [0, 'name'],
      [],
    ];
    for (const segments of paths) expect(parseFieldPath(formatFieldPath(segments))).toEqual(segments);
  });

  it('accepts the unquoted Kubernetes key form', () => {
    expect(parseFieldPath('spec.nodeSelector[kubernetes.io/arch]')).toEqual([
      'spec',
      'nodeSelector',
      'kubernetes.io/arch',
    ]);
  });

  it('keeps the well-formed prefix of a malformed path', () => {
    expect(parseFieldPath('spec.limits.!bad')).toEqual(['spec', 'limits']);
  });
});

describe('formatObjectError', () => {
  it('produces the contract format file: Kind/name: path: message', () => {
    expect(
      formatObjectError(
        'pools.yaml',
        'NodePool/default',
        'spec.template.spec.requirements[1].values',
        'must not be empty',
      ),
    ).toBe('pools.yaml: NodePool/default: spec.template.spec.requirements[1].values: must not be empty');
  });

  it('leaves out an empty path and appends a known line after the message', () => {
    expect(formatObjectError('a.yaml', 'Pod/web', '', 'unknown field "x"', 7)).toBe(
      'a.yaml: Pod/web: unknown field "x" (line 7)',
    );
  });
});

describe('fieldErrors: types and presence', () => {
  const schema = z.object({
    name: z.string(),
    count: z.number(),
    replicas: z.number().int(),
    on: z.boolean(),
  });

  it('says "is required" for a missing field', () => {
    expect(errorsOf(schema, { count: 1, replicas: 1, on: true })).toEqual([['name', 'is required']]);
  });

  it('names the expected and the received type for a wrong type', () => {
    expect(errorsOf(schema, { name: 3, count: 'x', replicas: 1, on: 'yes' })).toEqual([
      ['name', 'must be a string, not a number'],
      ['count', 'must be a number, not a string'],
      ['on', 'must be a boolean (true or false), not a string'],
    ]);
  });

  it('works the same when zod reports the input', () => {
    expect(errorsOf(schema, { name: null, count: 1, replicas: 1, on: true }, true)).toEqual([
      ['name', 'must be a string, not null'],
    ]);
    expect(errorsOf(schema, { count: 1, replicas: 1, on: true }, true)).toEqual([['name', 'is required']]);
  });

  it('says "must be an integer" for a fraction', () => {
    expect(errorsOf(schema, { name: 'a', count: 1, replicas: 1.5, on: true })).toEqual([
      ['replicas', 'must be an integer'],
    ]);
  });

  it('describes lists and objects in Kubernetes terms', () => {
    const s = z.object({ items: z.array(z.string()), meta: z.object({}) });
    expect(errorsOf(s, { items: 'a', meta: [] })).toEqual([
      ['items', 'must be a list, not a string'],
      ['meta', 'must be an object, not a list'],
    ]);
  });

  it('reports a wrong root type with an empty path', () => {
    expect(errorsOf(z.object({ a: z.string() }), 'text')).toEqual([['', 'must be an object, not a string']]);
  });
});

describe('fieldErrors: values, sizes and formats', () => {
  it('lists the allowed values of an enum and a single literal plainly', () => {
    const s = z.object({
      policy: z.enum(['WhenEmpty', 'WhenEmptyOrUnderutilized']),
      kind: z.literal('NodePool'),
    });
    expect(errorsOf(s, { policy: 'Never', kind: 'Pod' })).toEqual([
      ['policy', 'must be one of WhenEmpty, WhenEmptyOrUnderutilized'],
      ['kind', 'must be NodePool'],
    ]);
  });

  it('states list bounds in items', () => {
    const s = z.object({
      a: z.array(z.string()).max(2),
      b: z.array(z.string()).min(3),
      c: z.array(z.string()).min(1),
    });
    expect(errorsOf(s, { a: ['1', '2', '3'], b: ['1'], c: [] })).toEqual([
      ['a', 'must have at most 2 items'],
      ['b', 'must have at least 3 items'],
      ['c', 'must not be empty'],
    ]);
    expect(errorsOf(z.array(z.number()).max(1), [1, 2])).toEqual([['', 'must have at most 1 item']]);
    expect(errorsOf(z.array(z.number()).length(2), [1])).toEqual([['', 'must have exactly 2 items']]);
  });

  it('states number bounds, inclusive and exclusive', () => {
    const s = z.object({
      a: z.number().min(1),
      b: z.number().max(100),
      c: z.number().gt(0),
      d: z.number().lt(5),
    });
    expect(errorsOf(s, { a: 0, b: 101, c: 0, d: 5 })).toEqual([
      ['a', 'must be at least 1'],
      ['b', 'must be at most 100'],
      ['c', 'must be greater than 0'],
      ['d', 'must be less than 5'],
    ]);
  });

  it('states string lengths in characters', () => {
    const s = z.object({ a: z.string().max(3), b: z.string().min(1), c: z.string().min(2) });
    expect(errorsOf(s, { a: 'abcd', b: '', c: 'x' })).toEqual([
      ['a', 'must be at most 3 characters long'],
      ['b', 'must not be empty'],
      ['c', 'must be at least 2 characters long'],
    ]);
  });

  it('explains regex, prefix and well-known formats', () => {
    const s = z.object({
      a: z.string().regex(/^[a-z]+$/),
      b: z.string().startsWith('ami-'),
      c: z.iso.datetime(),
    });
    expect(errorsOf(s, { a: 'A', b: 'x', c: 'yesterday' })).toEqual([
      ['a', 'must match /^[a-z]+$/'],
      ['b', 'must start with "ami-"'],
      ['c', 'must be an RFC 3339 date-time (e.g. 2024-01-02T15:04:05Z)'],
    ]);
  });

  it('explains multiples', () => {
    expect(errorsOf(z.object({ a: z.number().multipleOf(5) }), { a: 7 })).toEqual([
      ['a', 'must be a multiple of 5'],
    ]);
  });
});

describe('fieldErrors: author messages', () => {
  it('keeps the message of a refinement', () => {
    const s = z.object({ ttl: z.string().refine((v) => v.endsWith('s'), 'must be a duration such as 30s') });
    expect(errorsOf(s, { ttl: '30' })).toEqual([['ttl', 'must be a duration such as 30s']]);
  });

  it('keeps the path and message of a superRefine issue', () => {
    const s = z.object({ min: z.number(), max: z.number() }).superRefine((v, ctx) => {
      if (v.min > v.max) ctx.addIssue({ code: 'custom', path: ['max'], message: 'must not be below min' });
    });
    expect(errorsOf(s, { min: 3, max: 1 })).toEqual([['max', 'must not be below min']]);
  });

  it('keeps a custom message on a built-in check', () => {
    const s = z.object({
      a: z.string().regex(/^q/, 'must name a queue'),
      b: z.string({ error: 'give a name' }),
    });
    expect(errorsOf(s, { a: 'z', b: 1 })).toEqual([
      ['a', 'must name a queue'],
      ['b', 'give a name'],
    ]);
  });

  it('replaces the default message of a refinement without one', () => {
    expect(errorsOf(z.object({ a: z.string().refine(() => false) }), { a: 'x' })).toEqual([
      ['a', 'is invalid'],
    ]);
  });
});

describe('fieldErrors: unknown keys', () => {
  it('gives one error per unknown key at the enclosing path, pointing segments at the key', () => {
    const s = z.strictObject({ spec: z.strictObject({ a: z.string() }) });
    const result = s.safeParse({ spec: { a: 'x', b: 1, c: 2 } });
    expect(result.success).toBe(false);
    const errors = fieldErrors(result.error!.issues);
    expect(errors).toEqual([
      { path: 'spec', segments: ['spec', 'b'], message: 'unknown field "b"' },
      { path: 'spec', segments: ['spec', 'c'], message: 'unknown field "c"' },
    ]);
  });

  it('reports unknown keys at the root with an empty path', () => {
    expect(errorsOf(z.strictObject({}), { extra: true })).toEqual([['', 'unknown field "extra"']]);
  });
});

describe('fieldErrors: records', () => {
  it('locates a bad key and a bad value of a record', () => {
    const s = z.object({ labels: z.record(z.string().max(5), z.string()) });
    expect(errorsOf(s, { labels: { 'example.com/too-long': 'x', ok: 1 } })).toEqual([
      ['labels["example.com/too-long"]', 'key must be at most 5 characters long'],
      ['labels.ok', 'must be a string, not a number'],
    ]);
  });
});

describe('fieldErrors: unions', () => {
  it('lists the accepted types when no alternative takes the value type', () => {
    const s = z.object({ value: z.union([z.string(), z.number()]) });
    expect(errorsOf(s, { value: true })).toEqual([['value', 'must be a string or a number, not a boolean']]);
  });

  it('combines literal alternatives into one list', () => {
    const s = z.object({ op: z.union([z.literal('In'), z.literal('NotIn'), z.literal('Exists')]) });
    expect(errorsOf(s, { op: 'Is' })).toEqual([['op', 'must be one of In, NotIn, Exists']]);
  });

  it('says "is required" when a required union is missing', () => {
    expect(errorsOf(z.object({ v: z.union([z.string(), z.number()]) }), {})).toEqual([['v', 'is required']]);
  });

  it('reports the alternative whose type matched, with its nested paths', () => {
    const term = z.union([z.string(), z.object({ tags: z.record(z.string(), z.string()), id: z.string() })]);
    const s = z.object({ terms: z.array(term) });
    expect(errorsOf(s, { terms: ['a', { tags: { a: 1 }, id: 'x' }] })).toEqual([
      ['terms[1].tags.a', 'must be a string, not a number'],
    ]);
  });

  it('prefers the alternative with fewer errors, then the one with fewer missing fields', () => {
    const s = z.object({
      k: z.union([z.object({ p: z.string() }), z.object({ q: z.number(), r: z.string() })]),
    });
    expect(errorsOf(s, { k: { q: 1, r: 2 } })).toEqual([['k.r', 'must be a string, not a number']]);
    expect(errorsOf(s, { k: { p: 1, q: 'x', r: 3 } })).toEqual([['k.p', 'must be a string, not a number']]);
  });

  it('prefers the alternative whose errors lie deeper', () => {
    const s = z.union([
      z.object({ a: z.string() }),
      z.object({ b: z.object({ c: z.object({ d: z.string() }) }) }),
    ]);
    expect(errorsOf(s, { b: { c: { d: 1 } } })).toEqual([['b.c.d', 'must be a string, not a number']]);
  });

  it('names the allowed discriminator values of a discriminated union', () => {
    const s = z.object({
      f: z.discriminatedUnion('type', [
        z.object({ type: z.literal('a'), x: z.string() }),
        z.object({ type: z.literal('b'), y: z.number() }),
      ]),
    });
    expect(errorsOf(s, { f: { type: 'c' } })).toEqual([['f.type', 'must be one of a, b']]);
    expect(errorsOf(s, { f: { type: 'b', y: 'z' } })).toEqual([['f.y', 'must be a number, not a string']]);
  });

  it('drops exact duplicates', () => {
    const s = z.object({ a: z.string() }).refine(() => false, { message: 'bad', path: ['a'] });
    const result = s.safeParse({ a: 'x' });
    const issues = [...result.error!.issues, ...result.error!.issues];
    expect(fieldErrors(issues)).toHaveLength(1);
  });
});
