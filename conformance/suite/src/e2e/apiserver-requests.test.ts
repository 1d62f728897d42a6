import { describe, expect, it } from 'vitest';
import { requestsBetween, requestsByVerb } from './apiserver-requests.js';

describe('apiserver request counts', () => {
  it('sums apiserver_request_total per verb and ignores other series', () => {
    const text = [
      '# TYPE apiserver_request_total counter',
      'apiserver_request_total{code="200",resource="pods",verb="LIST"} 3',
      'apiserver_request_total{code="201",resource="pods",verb="POST"} 5',
      'apiserver_request_total{code="200",resource="nodes",verb="LIST"} 4',
      'apiserver_request_duration_seconds_count{verb="LIST"} 99',
    ].join('\n');
    expect(requestsByVerb(text)).toEqual(
      new Map([
        ['LIST', 7],
        ['POST', 5],
      ]),
    );
  });

  it('prints the growth between two readings, most first', () => {
    const from = new Map([
      ['LIST', 7],
      ['POST', 5],
    ]);
    const to = new Map([
      ['LIST', 9],
      ['POST', 15],
      ['PATCH', 1],
    ]);
    expect(requestsBetween(from, to)).toBe('13 (POST 10, LIST 2, PATCH 1)');
    expect(requestsBetween(undefined, to)).toBe('n/a');
  });
});
