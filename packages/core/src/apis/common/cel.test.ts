import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { celList, celRulesOf, celString, withCel, withRules } from './cel.js';

describe('withRules', () => {
  const even = withRules(z.int(), [
    { cel: { rule: 'self % 2 == 0', message: 'must be even' }, check: (n) => n % 2 !== 0 && {} },
  ]);

  test('the check rejects with the rule message and the CEL lands in the metadata', () => {
    expect(even.safeParse(4).success).toBe(true);
    const result = even.safeParse(3);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['must be even']);
    expect(celRulesOf(even)).toEqual([{ rule: 'self % 2 == 0', message: 'must be even' }]);
  });

  test('rules accumulate over derived schemas and reach the JSON schema', () => {
    const both = withCel(even.describe('an even number'), [{ rule: 'self < 10', message: 'small' }]);
    expect(celRulesOf(both).map((r) => r.message)).toEqual(['must be even', 'small']);
    const json = z.toJSONSchema(both, { target: 'openapi-3.0', io: 'input' }) as Record<string, unknown>;
    expect(json['x-kubernetes-validations']).toEqual(celRulesOf(both));
    expect(json.description).toBe('an even number');
  });

  test('violations can point below the value and carry their own message', () => {
    const pair = withRules(z.object({ a: z.string(), b: z.string() }), [
      {
        cel: { rule: 'self.a != self.b', message: 'a and b differ' },
        check: (v) => v.a === v.b && [{ path: ['b'], message: `b repeats ${v.a}` }],
      },
    ]);
    const issues = pair.safeParse({ a: 'x', b: 'x' }).error?.issues ?? [];
    expect(issues.map((i) => [i.path, i.message])).toEqual([[['b'], 'b repeats x']]);
  });
});

test('CEL literals escape quotes and backslashes', () => {
  expect(celString("it's \\.")).toBe("'it\\'s \\\\.'");
  expect(celList(['a', 'b'])).toBe("['a', 'b']");
});
