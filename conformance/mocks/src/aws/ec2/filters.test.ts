import { describe, expect, it } from 'vitest';
import { parseQueryForm } from '../query/form.js';
import { globMatches, matchesFilters, readFilters, tagFieldValues } from './filters.js';

interface Thing {
  readonly id: string;
  readonly tags: Map<string, string>;
}
const fields = (t: Thing, name: string) => (name === 'id' ? [t.id] : tagFieldValues(t.tags, name));

describe('filters', () => {
  it('matches globs with * and ? and nothing else special', () => {
    expect(
      globMatches('amazon-eks-node-al2023-*-1.34-*', 'amazon-eks-node-al2023-x86_64-standard-1.34-v1'),
    ).toBe(true);
    expect(globMatches('m5.?xlarge', 'm5.2xlarge')).toBe(true);
    expect(globMatches('m5.large', 'm5xlarge')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
  });

  it('ANDs filters and ORs values, with tag:Key and tag-key', () => {
    const thing = { id: 'a', tags: new Map([['karpenter.sh/discovery', 'c1']]) };
    const f = (q: string) => matchesFilters(thing, readFilters(parseQueryForm(q)), fields);
    expect(f('Filter.1.Name=tag%3Akarpenter.sh%2Fdiscovery&Filter.1.Value.1=c1')).toBe(true);
    expect(f('Filter.1.Name=tag%3Akarpenter.sh%2Fdiscovery&Filter.1.Value.1=c2')).toBe(false);
    expect(
      f(
        'Filter.1.Name=tag-key&Filter.1.Value.1=karpenter.sh%2F*&Filter.2.Name=id&Filter.2.Value.1=b&Filter.2.Value.2=a',
      ),
    ).toBe(true);
    expect(f('Filter.1.Name=tag-key&Filter.1.Value.1=x&Filter.2.Name=id&Filter.2.Value.1=a')).toBe(false);
  });

  it('rejects a filter name the resource does not have', () => {
    const thing = { id: 'a', tags: new Map<string, string>() };
    expect(() => matchesFilters(thing, [{ name: 'colour', values: ['x'] }], fields)).toThrow(
      /'colour' is invalid/,
    );
  });
});
