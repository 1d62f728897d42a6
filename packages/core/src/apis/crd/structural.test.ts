import { describe, expect, test } from 'vitest';
import { coreCrdKinds } from '../v1/kinds.js';
import { generateCrd } from './generate.js';
import { NotStructuralError, type SchemaNode, structuralProblems, toStructural } from './structural.js';

describe('toStructural', () => {
  test('inlines references, keeping sibling keywords', () => {
    const out = toStructural(
      { type: 'object', properties: { a: { $ref: '#/$defs/name', description: 'A' } } },
      { name: { type: 'string', maxLength: 3 } },
    );
    expect(out).toEqual({
      type: 'object',
      properties: { a: { type: 'string', maxLength: 3, description: 'A' } },
    });
  });

  test('drops additionalProperties beside properties, propertyNames and safe-integer bounds', () => {
    const out = toStructural({
      type: 'object',
      properties: { n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
      additionalProperties: false,
      propertyNames: { pattern: 'x' },
    });
    expect(out).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
  });

  test('turns marked unions into int-or-string', () => {
    const out = toStructural({
      'x-kubernetes-int-or-string': true,
      pattern: '^[0-9]+$',
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
    });
    expect(out).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: '^[0-9]+$',
      'x-kubernetes-int-or-string': true,
    });
  });

  test('refuses what cannot be structural, naming the path', () => {
    expect(() =>
      toStructural({
        type: 'object',
        properties: { a: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } },
      }),
    ).toThrow(
      new NotStructuralError('.a', 'unions are not structural; use a refinement with a CEL rule instead'),
    );
    expect(() => toStructural({ type: 'object', properties: { a: {} } })).toThrow(/\.a: has no type/);
    expect(() => toStructural({ $ref: '#/$defs/x' }, { x: { $ref: '#/$defs/x' } })).toThrow(
      /recursive reference/,
    );
  });
});

describe('structuralProblems', () => {
  test('finds every kind of problem', () => {
    const bad: SchemaNode = {
      type: 'object',
      properties: {
        a: { $ref: '#/x' },
        b: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
      },
      additionalProperties: { anyOf: [{ type: 'string' }] },
    };
    expect(structuralProblems(bad)).toEqual([
      '<root>: has additionalProperties beside properties',
      '.a: has a $ref',
      '.a: has no type',
      '.b: has additionalProperties beside properties',
      '[*]: has no type',
      '[*]: has anyOf outside an int-or-string',
    ]);
  });

  test.each(coreCrdKinds.map((k) => [k.kind, k] as const))('the %s CRD schema is structural', (_, kind) => {
    const schema = generateCrd(kind).spec.versions[0]!.schema.openAPIV3Schema;
    expect(structuralProblems(schema)).toEqual([]);
  });
});
