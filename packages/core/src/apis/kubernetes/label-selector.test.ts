import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { type LabelSelector, labelSelectorSchema, matchesLabelSelector } from './label-selector.js';

const labels = { app: 'web', tier: 'frontend' };

describe('matchesLabelSelector', () => {
  it('an empty selector selects everything, an absent one nothing', () => {
    expect(matchesLabelSelector({}, labels)).toBe(true);
    expect(matchesLabelSelector({}, undefined)).toBe(true);
    expect(matchesLabelSelector(undefined, labels)).toBe(false);
    expect(matchesLabelSelector(null, labels)).toBe(false);
  });

  it('matchLabels needs every pair', () => {
    expect(matchesLabelSelector({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { app: 'web', tier: 'backend' } }, labels)).toBe(false);
    expect(matchesLabelSelector({ matchLabels: { missing: '' } }, labels)).toBe(false);
  });

  it('In needs the key with one of the values', () => {
    const sel: LabelSelector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['api', 'web'] }] };
    expect(matchesLabelSelector(sel, labels)).toBe(true);
    expect(matchesLabelSelector(sel, { app: 'db' })).toBe(false);
    expect(matchesLabelSelector(sel, {})).toBe(false);
  });

  it('NotIn holds when the key is absent or has another value', () => {
    const sel: LabelSelector = { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] };
    expect(matchesLabelSelector(sel, labels)).toBe(false);
    expect(matchesLabelSelector(sel, { app: 'db' })).toBe(true);
    expect(matchesLabelSelector(sel, {})).toBe(true);
  });

  it('Exists and DoesNotExist look at the key only', () => {
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, labels)).toBe(
      true,
    );
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels)).toBe(
      false,
    );
    expect(
      matchesLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels),
    ).toBe(true);
    expect(
      matchesLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels),
    ).toBe(false);
  });

  it('matchLabels and expressions are ANDed', () => {
    const sel: LabelSelector = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['backend'] }],
    };
    expect(matchesLabelSelector(sel, labels)).toBe(false);
    expect(matchesLabelSelector(sel, { app: 'web', tier: 'backend' })).toBe(true);
  });

  it('does not treat inherited object properties as labels', () => {
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {})).toBe(
      false,
    );
  });

  it('matchLabels {k: v} means the same as k In (v)', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const value = fc.constantFrom('x', 'y');
    fc.assert(
      fc.property(key, value, fc.dictionary(key, value), (k, v, have) => {
        expect(matchesLabelSelector({ matchLabels: { [k]: v } }, have)).toBe(
          matchesLabelSelector({ matchExpressions: [{ key: k, operator: 'In', values: [v] }] }, have),
        );
      }),
    );
  });

  it('NotIn is the negation of In, and DoesNotExist of Exists', () => {
    const key = fc.constantFrom('a', 'b');
    const value = fc.constantFrom('x', 'y', 'z');
    fc.assert(
      fc.property(key, fc.array(value, { minLength: 1 }), fc.dictionary(key, value), (k, values, have) => {
        const inSel = matchesLabelSelector({ matchExpressions: [{ key: k, operator: 'In', values }] }, have);
        const notIn = matchesLabelSelector(
          { matchExpressions: [{ key: k, operator: 'NotIn', values }] },
          have,
        );
        expect(notIn).toBe(!inSel);
        const exists = matchesLabelSelector({ matchExpressions: [{ key: k, operator: 'Exists' }] }, have);
        const absent = matchesLabelSelector(
          { matchExpressions: [{ key: k, operator: 'DoesNotExist' }] },
          have,
        );
        expect(absent).toBe(!exists);
      }),
    );
  });
});

describe('labelSelectorSchema', () => {
  const errorsOf = (value: unknown) => fieldErrors(labelSelectorSchema.safeParse(value).error?.issues ?? []);

  it('accepts well-formed selectors', () => {
    expect(
      labelSelectorSchema.safeParse({
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'x', operator: 'Exists' },
        ],
      }).success,
    ).toBe(true);
  });

  it('rejects an unknown operator, including node-only Gt', () => {
    const errors = errorsOf({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] });
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'matchExpressions[0].operator',
        message: 'must be one of In, NotIn, Exists, DoesNotExist',
      }),
    ]);
  });

  it('In without values and Exists with values are errors', () => {
    const errors = errorsOf({
      matchExpressions: [
        { key: 'a', operator: 'In' },
        { key: 'b', operator: 'Exists', values: ['x'] },
      ],
    });
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['matchExpressions[0].values', 'must have at least one value for operator In'],
      ['matchExpressions[1].values', 'must be empty for operator Exists'],
    ]);
  });

  it('checks keys and values for label syntax', () => {
    const errors = errorsOf({
      matchLabels: { 'bad key!': 'x' },
      matchExpressions: [{ key: 'a', operator: 'In', values: ['no spaces allowed'] }],
    });
    expect(errors.map((e) => e.path)).toEqual(['matchLabels["bad key!"]', 'matchExpressions[0].values[0]']);
  });

  it('lets unknown fields through', () => {
    expect(labelSelectorSchema.parse({ future: 1 })).toEqual({ future: 1 });
  });
});
