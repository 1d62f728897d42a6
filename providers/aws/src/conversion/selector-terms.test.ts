import { describe, expect, it } from 'vitest';
import { asSelectorMap, termsFromSelectorMap } from './selector-terms.js';

describe('termsFromSelectorMap', () => {
  it('a plain tag map is one tags term', () => {
    expect(termsFromSelectorMap({ 'karpenter.sh/discovery': 'demo' }, 'subnet')).toEqual({
      terms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
      dropped: [],
    });
  });

  it('comma-separated tag values make one term per combination, keys in sorted order', () => {
    const { terms } = termsFromSelectorMap(
      { 'karpenter.sh/discovery-2': 'd4, d5', 'karpenter.sh/discovery-1': 'd1,d2,d3' },
      'subnet',
    );
    expect(terms).toEqual([
      { tags: { 'karpenter.sh/discovery-1': 'd1', 'karpenter.sh/discovery-2': 'd4' } },
      { tags: { 'karpenter.sh/discovery-1': 'd2', 'karpenter.sh/discovery-2': 'd4' } },
      { tags: { 'karpenter.sh/discovery-1': 'd3', 'karpenter.sh/discovery-2': 'd4' } },
      { tags: { 'karpenter.sh/discovery-1': 'd1', 'karpenter.sh/discovery-2': 'd5' } },
      { tags: { 'karpenter.sh/discovery-1': 'd2', 'karpenter.sh/discovery-2': 'd5' } },
      { tags: { 'karpenter.sh/discovery-1': 'd3', 'karpenter.sh/discovery-2': 'd5' } },
    ]);
  });

  it('aws-ids and aws::ids become id terms', () => {
    expect(termsFromSelectorMap({ 'aws-ids': 'subnet-1, subnet-2' }, 'subnet').terms).toEqual([
      { id: 'subnet-1' },
      { id: 'subnet-2' },
    ]);
    expect(termsFromSelectorMap({ 'aws::ids': 'sg-1' }, 'securityGroup').terms).toEqual([{ id: 'sg-1' }]);
  });

  it('ids win over other filters, which are reported as dropped', () => {
    expect(termsFromSelectorMap({ 'aws::ids': 'ami-1,ami-2', 'aws::name': 'x', MyTag: '*' }, 'ami')).toEqual({
      terms: [{ id: 'ami-1' }, { id: 'ami-2' }],
      dropped: ['MyTag', 'aws::name'],
    });
  });

  it('AMI names and owners combine with tags, owners outermost', () => {
    expect(
      termsFromSelectorMap({ 'aws::owners': 'self,amazon', 'aws::name': 'my-ami', team: 'a' }, 'ami').terms,
    ).toEqual([
      { tags: { team: 'a' }, name: 'my-ami', owner: 'self' },
      { tags: { team: 'a' }, name: 'my-ami', owner: 'amazon' },
    ]);
  });

  it('aws::name is an ordinary tag key outside AMI selectors', () => {
    expect(termsFromSelectorMap({ 'aws::name': 'x' }, 'subnet').terms).toEqual([
      { tags: { 'aws::name': 'x' } },
    ]);
  });
});

describe('asSelectorMap', () => {
  it('accepts maps of strings only', () => {
    expect(asSelectorMap({ a: 'b' })).toEqual({ a: 'b' });
    expect(asSelectorMap({ a: 1 })).toBeUndefined();
    expect(asSelectorMap(['a'])).toBeUndefined();
    expect(asSelectorMap('a')).toBeUndefined();
  });
});
