import { describe, expect, it } from 'vitest';
import {
  compileLabelSelector,
  formatLabelSelector,
  LabelSelectorError,
  matchesCompiled,
  parseLabelSelector,
} from './label-selector.js';

describe('compileLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', version: '3' };
  const matches = (selector: Parameters<typeof compileLabelSelector>[0]) =>
    matchesCompiled(compileLabelSelector(selector), labels);

  it('matches everything with an empty selector and nothing with a missing one', () => {
    expect(matches({})).toBe(true);
    expect(matchesCompiled(compileLabelSelector({}), undefined)).toBe(true);
    expect(matches(undefined)).toBe(false);
    expect(matches(null)).toBe(false);
  });

  it('requires every matchLabels entry', () => {
    expect(matches({ matchLabels: { app: 'web', tier: 'front' } })).toBe(true);
    expect(matches({ matchLabels: { app: 'web', tier: 'back' } })).toBe(false);
  });

  it('evaluates each expression operator', () => {
    const m = (operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist', key: string, values?: string[]) =>
      matches({ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] });
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

  it('rejects malformed expressions, as the API server rejects such a list request', () => {
    expect(() =>
      compileLabelSelector({ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }),
    ).toThrow(LabelSelectorError);
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
