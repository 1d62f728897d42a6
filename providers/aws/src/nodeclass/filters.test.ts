import { describe, expect, it } from 'vitest';
import { securityGroupQueries, subnetQueries, tagFilters } from './filters.js';

describe('tagFilters', () => {
  it('tag:<key> for a value, tag-key for *', () => {
    expect(tagFilters({ 'karpenter.sh/discovery': 'prod', Team: '*' })).toEqual([
      { Name: 'tag-key', Values: ['Team'] },
      { Name: 'tag:karpenter.sh/discovery', Values: ['prod'] },
    ]);
  });
});

describe('subnetQueries', () => {
  it('one query for all ids, one per tags term', () => {
    expect(
      subnetQueries([
        { id: 'subnet-1' },
        { tags: { a: 'b', c: '*' } },
        { id: 'subnet-2' },
        { tags: { x: 'y' } },
      ]),
    ).toEqual([
      {
        filters: [{ Name: 'subnet-id', Values: ['subnet-1', 'subnet-2'] }],
        describes: 'id subnet-1, subnet-2',
      },
      {
        filters: [
          { Name: 'tag:a', Values: ['b'] },
          { Name: 'tag-key', Values: ['c'] },
        ],
        describes: 'tags {"a":"b","c":"*"}',
      },
      { filters: [{ Name: 'tag:x', Values: ['y'] }], describes: 'tags {"x":"y"}' },
    ]);
  });
});

describe('securityGroupQueries', () => {
  it('group-id for ids, group-name for names, tag filters for tags', () => {
    expect(securityGroupQueries([{ name: 'nodes' }, { id: 'sg-1' }, { tags: { role: 'node' } }])).toEqual([
      { filters: [{ Name: 'group-id', Values: ['sg-1'] }], describes: 'id sg-1' },
      { filters: [{ Name: 'group-name', Values: ['nodes'] }], describes: 'name nodes' },
      { filters: [{ Name: 'tag:role', Values: ['node'] }], describes: 'tags {"role":"node"}' },
    ]);
  });
});
