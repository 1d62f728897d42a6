import { describe, expect, it } from 'vitest';
import { addCounts, countDeltas, countsSince, sortedRecord } from './counts.js';

describe('countsSince', () => {
  it('answers what grew, sorted by key, leaving out keys that did not grow', () => {
    const before = new Map([
      ['underutilized', 2],
      ['empty', 1],
    ]);
    const after = new Map([
      ['underutilized', 5],
      ['empty', 1],
      ['drifted', 2],
    ]);
    expect(countsSince(before, after)).toEqual({ drifted: 2, underutilized: 3 });
    expect(Object.keys(countsSince(before, after))).toEqual(['drifted', 'underutilized']);
    expect(countsSince(after, after)).toEqual({});
  });
});

describe('countDeltas', () => {
  it('turns a cumulative count into increments that add up to its last reading', async () => {
    const readings = [
      new Map<string, number>(),
      new Map([['empty', 2]]),
      new Map([['empty', 2]]),
      new Map([
        ['empty', 3],
        ['interruption', 1],
      ]),
    ];
    let i = 0;
    const next = countDeltas(async () => readings[i++]!);
    const deltas = [await next(), await next(), await next(), await next()];
    expect(deltas).toEqual([{}, { empty: 2 }, {}, { empty: 1, interruption: 1 }]);
    expect(addCounts(deltas)).toEqual(sortedRecord(readings.at(-1)!));
  });

  it('copies each reading, so a tally changed in place still yields increments', async () => {
    const tally = new Map([['underutilized', 1]]);
    const next = countDeltas(() => tally);
    expect(await next()).toEqual({ underutilized: 1 });
    tally.set('underutilized', 4);
    expect(await next()).toEqual({ underutilized: 3 });
  });
});

describe('addCounts', () => {
  it('sums records key by key', () => {
    expect(addCounts([{ b: 1 }, {}, { a: 2, b: 3 }])).toEqual({ a: 2, b: 4 });
    expect(addCounts([])).toEqual({});
  });
});
