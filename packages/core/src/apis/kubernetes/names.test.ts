import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { labelsSchema, labelValueProblem, objectNameSchema, qualifiedNameProblem } from './names.js';

describe('qualifiedNameProblem', () => {
  it.each(['app', 'app.kubernetes.io/name', 'kubernetes.io/hostname', 'a', 'A_b-c.d', 'example.com/X9'])(
    'accepts %s',
    (key) => {
      expect(qualifiedNameProblem(key)).toBeUndefined();
    },
  );

  it.each([
    ['', 'must not be empty'],
    ['/name', 'empty prefix'],
    ['Example.com/name', 'not a lowercase DNS subdomain'],
    ['example.com/', 'must have a name after the prefix'],
    ['-app', 'start and end with an alphanumeric'],
    ['app_', 'start and end with an alphanumeric'],
    ['a/b/c', 'must consist of'],
    ['x'.repeat(64), 'longer than 63'],
    [`${'a'.repeat(254)}/x`, 'longer than 253'],
  ])('rejects %j', (key, phrase) => {
    expect(qualifiedNameProblem(key)).toContain(phrase);
  });
});

describe('labelValueProblem', () => {
  it('accepts empty and well-formed values', () => {
    expect(labelValueProblem('')).toBeUndefined();
    expect(labelValueProblem('us-west-2a')).toBeUndefined();
    expect(labelValueProblem('v1.2_3')).toBeUndefined();
  });

  it('rejects values with slashes, edges that are not alphanumeric, or more than 63 characters', () => {
    expect(labelValueProblem('a/b')).toContain('alphanumerics');
    expect(labelValueProblem('.a')).toContain('alphanumerics');
    expect(labelValueProblem('a'.repeat(64))).toContain('63');
  });
});

describe('labelsSchema', () => {
  it('reports a bad key and a bad value at their paths', () => {
    const result = labelsSchema.safeParse({ 'Bad_Prefix.com/x': 'ok', good: 'not ok!' });
    const errors = fieldErrors(result.error?.issues ?? []);
    expect(errors.map((e) => e.path)).toEqual(['["Bad_Prefix.com/x"]', 'good']);
    expect(errors[0]?.message).toContain('not a lowercase DNS subdomain');
    expect(errors[1]?.message).toContain('must be empty or consist of');
  });

  it('rejects non-string values such as YAML numbers', () => {
    expect(labelsSchema.safeParse({ zone: 1 }).success).toBe(false);
  });
});

describe('objectNameSchema', () => {
  it('requires a non-empty name of at most 253 characters', () => {
    expect(objectNameSchema.safeParse('web-1').success).toBe(true);
    expect(objectNameSchema.safeParse('').success).toBe(false);
    expect(objectNameSchema.safeParse('a'.repeat(254)).success).toBe(false);
  });
});
