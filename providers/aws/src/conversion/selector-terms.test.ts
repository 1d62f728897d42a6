import { describe, expect, it } from 'vitest';
import { asSelectorMap, termsFromSelectorMap } from './selector-terms.js';

/** The terms made, failing the test when the selector makes too many. */
function made(...args: Parameters<typeof termsFromSelectorMap>) {
  const result = termsFromSelectorMap(...args);
  if ('tooMany' in result) throw new Error(`unexpectedly too many terms: ${result.tooMany}`);
  return result;
}

describe('termsFromSelectorMap', () => {
  it('refuses, before building them, more combinations than v1 allows', () => {
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`).join(',');
    const selector = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, values]));
    const result = termsFromSelectorMap(selector, 'subnet');
    expect(result).toEqual({ tooMany: 400 });
    expect(
      termsFromSelectorMap(
        { a: 'x,y,z', b: Array.from({ length: 10 }, (_, i) => `${i}`).join(',') },
        'subnet',
      ),
    ).toHaveProperty('terms');
    expect(
      termsFromSelectorMap(
        { a: 'x,y,z,w', b: Array.from({ length: 10 }, (_, i) => `${i}`).join(',') },
        'subnet',
      ),
    ).toEqual({ tooMany: 40 });
  });

  it('a plain tag map is one tags term', () => {
    expect(made({ 'karpenter.sh/discovery': 'demo' }, 'subnet')).toEqual({
      terms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
      dropped: [],
    });
  });

  it('comma-separated tag values make one term per combination, keys in sorted order', () => {
    const { terms } = made(
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
    expect(made({ 'aws-ids': 'subnet-1, subnet-2' }, 'subnet').terms).toEqual([
      { id: 'subnet-1' },
      { id: 'subnet-2' },
    ]);
    expect(made({ 'aws::ids': 'sg-1' }, 'securityGroup').terms).toEqual([{ id: 'sg-1' }]);
  });

  it('ids win over other filters, which are reported as dropped', () => {
    expect(made({ 'aws::ids': 'ami-1,ami-2', 'aws::name': 'x', MyTag: '*' }, 'ami')).toEqual({
      terms: [{ id: 'ami-1' }, { id: 'ami-2' }],
      dropped: ['MyTag', 'aws::name'],
    });
  });

  it('AMI names and owners combine with tags, owners outermost', () => {
    expect(made({ 'aws::owners': 'self,amazon', 'aws::name': 'my-ami', team: 'a' }, 'ami').terms).toEqual([
      { tags: { team: 'a' }, name: 'my-ami', owner: 'self' },
      { tags: { team: 'a' }, name: 'my-ami', owner: 'amazon' },
    ]);
  });

  it('aws::name is an ordinary tag key outside AMI selectors', () => {
    expect(made({ 'aws::name': 'x' }, 'subnet').terms).toEqual([{ tags: { 'aws::name': 'x' } }]);
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
