import { describe, expect, it } from 'vitest';
import {
  compileLabelSelector,
  formatLabelSelector,
  LabelSelectorError,
  matchesCompiled,
  matchesLabelSelector,
  parseLabelSelector,
} from './label-selector.js';

describe('matchesLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', version: '3' };

  it('matches everything with an empty selector and nothing with a missing one', () => {
    expect(matchesLabelSelector({}, labels)).toBe(true);
    expect(matchesLabelSelector({}, undefined)).toBe(true);
    expect(matchesLabelSelector(undefined, labels)).toBe(false);
    expect(matchesLabelSelector(null, labels)).toBe(false);
  });

  it('requires every matchLabels entry', () => {
    expect(matchesLabelSelector({ matchLabels: { app: 'web', tier: 'front' } }, labels)).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { app: 'web', tier: 'back' } }, labels)).toBe(false);
  });

  it('evaluates each expression operator', () => {
    const m = (operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist', key: string, values?: string[]) =>
      matchesLabelSelector({ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }, labels);
    expect(m('In', 'tier', ['front', 'back'])).toBe(true);
    expect(m('In', 'tier', ['back'])).toBe(false);
    expect(m('In', 'missing', ['x'])).toBe(false);
    expect(m('NotIn', 'tier', ['back'])).toBe(true);
    expect(m('NotIn', 'tier', ['front'])).toBe(false);
    expect(m('NotIn', 'missing', ['x'])).toBe(true);
    expect(m('Exists', 'app')).toBe(true);
    expect(m('Exists', 'missing')).toBe(false);
    expect(m('DoesNotExist', 'missing')).toBe(true);
    expect(m('DoesNotExist', 'app')).toBe(false);
  });

  it('treats malformed expressions as matching nothing', () => {
    expect(
      matchesLabelSelector({ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, labels),
    ).toBe(false);
    expect(() =>
      compileLabelSelector({ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] }),
    ).toThrow(LabelSelectorError);
  });
});

describe('parseLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', version: '3' };
  const matches = (text: string) => matchesCompiled(parseLabelSelector(text), labels);

  it('parses equality, inequality, sets, existence and numeric comparisons', () => {
    expect(matches('')).toBe(true);
    expect(matches('app=web')).toBe(true);
    expect(matches('app==web')).toBe(true);
    expect(matches('app!=web')).toBe(false);
    expect(matches('app=web, tier in (front, back)')).toBe(true);
    expect(matches('tier notin (front)')).toBe(false);
    expect(matches('app,!canary')).toBe(true);
    expect(matches('!app')).toBe(false);
    expect(matches('version>2,version<4')).toBe(true);
    expect(matches('version>3')).toBe(false);
  });

  it('accepts an empty value', () => {
    expect(parseLabelSelector('app=')).toEqual([{ key: 'app', operator: 'In', values: [''] }]);
    expect(matchesCompiled(parseLabelSelector('app='), { app: '' })).toBe(true);
  });

  it('rejects malformed input', () => {
    expect(() => parseLabelSelector('app in web')).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector('app in (a')).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector('=web')).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector('version>x')).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector('a=b c')).toThrow(LabelSelectorError);
  });

  it('round-trips a structured selector through the string form', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In' as const, values: ['a', 'b'] },
        { key: 'canary', operator: 'DoesNotExist' as const },
      ],
    };
    const text = formatLabelSelector(selector);
    expect(text).toBe('app=web,tier in (a,b),!canary');
    expect(parseLabelSelector(text)).toEqual(compileLabelSelector(selector));
  });
});
