import { describe, expect, it } from 'vitest';
import { FieldSelectorError, matchesFieldSelector, parseFieldSelector } from './field-selector.js';

describe('field selectors', () => {
  const fields: Record<string, string> = {
    'spec.nodeName': 'node-1',
    'metadata.name': 'a,b=c',
    'status.phase': '',
  };
  const value = (f: string) => fields[f];

  it('parses =, == and != terms', () => {
    expect(parseFieldSelector('spec.nodeName=node-1,status.phase!=Running,metadata.name==x')).toEqual([
      { field: 'spec.nodeName', operator: '=', value: 'node-1' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
      { field: 'metadata.name', operator: '=', value: 'x' },
    ]);
    expect(parseFieldSelector('')).toEqual([]);
  });

  it('matches values, an empty value selecting unset fields', () => {
    expect(matchesFieldSelector(parseFieldSelector('spec.nodeName=node-1'), value)).toBe(true);
    expect(matchesFieldSelector(parseFieldSelector('spec.nodeName!=node-1'), value)).toBe(false);
    expect(matchesFieldSelector(parseFieldSelector('status.phase='), value)).toBe(true);
  });

  it('honours escaped separators in values', () => {
    const reqs = parseFieldSelector('metadata.name=a\\,b\\=c');
    expect(reqs).toEqual([{ field: 'metadata.name', operator: '=', value: 'a,b=c' }]);
    expect(matchesFieldSelector(reqs, value)).toBe(true);
  });

  it('rejects terms without an operator and unsupported fields', () => {
    expect(() => parseFieldSelector('spec.nodeName')).toThrow(FieldSelectorError);
    expect(() => parseFieldSelector('=x')).toThrow(FieldSelectorError);
    expect(() => matchesFieldSelector(parseFieldSelector('spec.other=x'), value)).toThrow(/not supported/);
  });
});
