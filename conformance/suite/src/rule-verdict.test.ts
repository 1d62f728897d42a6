import type { RuleCase } from '@nodewright/core/apis';
import { describe, expect, it } from 'vitest';
import { judgeRejection } from './rule-verdict.js';
import type { Rejection } from './server-rejection.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        expireAfter: { type: 'string', pattern: '^(([0-9]+(s|m|h))+|Never)$' },
        tags: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};

const ruleCase = (over: Partial<RuleCase>): RuleCase => ({
  rule: 'expireAfter is a duration or Never',
  valid: {},
  invalid: {},
  path: 'spec.expireAfter',
  message: 'must be a duration such as 30s, 10m or 1h30m, or Never',
  ...over,
});

const invalid = (field: string, message: string, reason = 'FieldValueInvalid'): Rejection => ({
  code: 422,
  reason: 'Invalid',
  message: 'is invalid',
  causes: [{ field, reason, message }],
});

describe('judgeRejection', () => {
  it('agrees when the field and the meaning match', () => {
    const verdict = judgeRejection(
      ruleCase({}),
      invalid('spec.expireAfter', `Invalid value: "30d": in body should match '^(([0-9]+(s|m|h))+|Never)$'`),
      schema,
    );
    expect(verdict.agrees).toBe(true);
    expect(verdict.agreement).toEqual({ kind: 'equivalent', how: 'pattern' });
  });

  it('looks for the cause at serverPath when the case has one', () => {
    const tagCase = ruleCase({
      rule: 'tag keys are not empty',
      path: 'spec.tags[""]',
      serverPath: 'spec.tags',
      message: 'tag keys must not be empty',
    });
    const verdict = judgeRejection(
      tagCase,
      invalid('spec.tags', 'Invalid value: tag keys must not be empty'),
      schema,
    );
    expect(verdict).toMatchObject({ agrees: true, field: 'spec.tags', agreement: { kind: 'same' } });
  });

  it('disagrees, naming both sides, when the server reports another field', () => {
    const verdict = judgeRejection(
      ruleCase({}),
      invalid('spec.template', 'Invalid value: must be a duration such as 30s, 10m or 1h30m, or Never'),
      schema,
    );
    expect(verdict.agrees).toBe(false);
    expect(verdict.explanation).toContain('the server reported nothing at spec.expireAfter');
    expect(verdict.explanation).toContain('- nodewright  spec.expireAfter: must be a duration');
    expect(verdict.explanation).toContain('spec.template  [FieldValueInvalid]');
  });

  it('disagrees when the message at the field is about something else', () => {
    const verdict = judgeRejection(
      ruleCase({}),
      invalid('spec.expireAfter', 'Invalid value: too late'),
      schema,
    );
    expect(verdict.agrees).toBe(false);
    expect(verdict.explanation).toContain('does not say what nodewright says');
  });

  it('accepts 400 only for a strict-decoding unknown field', () => {
    const unknownCase = ruleCase({
      path: 'spec',
      serverPath: 'spec.kubelet',
      message: 'unknown field "kubelet"',
    });
    const strict: Rejection = {
      code: 400,
      reason: 'BadRequest',
      message: 'strict decoding error: unknown field "spec.kubelet"',
      causes: [
        { field: 'spec.kubelet', reason: 'FieldValueUnknown', message: 'unknown field "spec.kubelet"' },
      ],
    };
    expect(judgeRejection(unknownCase, strict, schema).agrees).toBe(true);
    const badRequest = {
      ...invalid('spec.expireAfter', 'Invalid value: "30d": must be a duration'),
      code: 400,
    };
    const verdict = judgeRejection(ruleCase({ message: 'must be a duration' }), badRequest, schema);
    expect(verdict.agrees).toBe(false);
    expect(verdict.explanation).toContain('the server answered 400, not 422');
  });
});
