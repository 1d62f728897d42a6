import { describe, expect, it } from 'vitest';
import { parseQueryForm } from '../query/form.js';
import { paginate } from './pagination.js';

const limits = { min: 5, max: 1000 };
const items = Array.from({ length: 12 }, (_, i) => i);

describe('paginate', () => {
  it('walks pages with the token it issues', () => {
    const first = paginate('A', items, parseQueryForm('MaxResults=5'), limits);
    expect(first.items).toEqual([0, 1, 2, 3, 4]);
    const second = paginate('A', items, parseQueryForm(`MaxResults=5&NextToken=${first.nextToken}`), limits);
    const third = paginate('A', items, parseQueryForm(`MaxResults=5&NextToken=${second.nextToken}`), limits);
    expect([...second.items, ...third.items]).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(third.nextToken).toBeUndefined();
  });

  it('uses the default size, refuses MaxResults out of range and foreign tokens', () => {
    expect(paginate('A', items, parseQueryForm(''), { ...limits, defaultSize: 10 }).items).toHaveLength(10);
    expect(() => paginate('A', items, parseQueryForm('MaxResults=2'), limits)).toThrow(/MaxResults/);
    const token = paginate('A', items, parseQueryForm('MaxResults=5'), limits).nextToken;
    expect(() => paginate('B', items, parseQueryForm(`NextToken=${token}`), limits)).toThrow(/NextToken/);
  });
});
