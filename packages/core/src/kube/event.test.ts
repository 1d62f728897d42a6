import { describe, expect, it } from 'vitest';
import { EventAggregator, type EventInput } from './event.js';

const input = (message: string, reason = 'Launched'): EventInput => ({
  involvedObject: { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', name: 'nc-1', uid: 'u1' },
  reason,
  message,
  type: 'Normal',
  source: { component: 'karpenter' },
});

describe('EventAggregator', () => {
  it('creates the first event and bumps identical ones', () => {
    const agg = new EventAggregator();
    const first = agg.observe(input('launched'), Date.parse('2026-03-01T12:00:00Z'));
    expect(first.kind).toBe('create');
    if (first.kind !== 'create') return;
    expect(first.event.metadata.namespace).toBe('default');
    expect(first.event.metadata.name).toMatch(/^nc-1\.[0-9a-f]+$/);
    expect(first.event).toMatchObject({
      count: 1,
      firstTimestamp: '2026-03-01T12:00:00Z',
      reportingComponent: 'karpenter',
    });
    const second = agg.observe(input('launched'), Date.parse('2026-03-01T12:00:07Z'));
    expect(second).toEqual({
      kind: 'bump',
      key: first.event.metadata,
      count: 2,
      lastTimestamp: '2026-03-01T12:00:07Z',
    });
  });

  it('keeps different messages and reasons apart, with unique names at the same instant', () => {
    const agg = new EventAggregator();
    const a = agg.observe(input('one'), 0);
    const b = agg.observe(input('two'), 0);
    const c = agg.observe(input('one', 'Other'), 0);
    expect([a.kind, b.kind, c.kind]).toEqual(['create', 'create', 'create']);
    const names = [a, b, c].map((d) => (d.kind === 'create' ? d.event.metadata.name : ''));
    expect(new Set(names).size).toBe(3);
  });

  it('forgets the oldest events beyond its capacity, and on request', () => {
    const agg = new EventAggregator(2);
    agg.observe(input('one'), 0);
    agg.observe(input('two'), 0);
    agg.observe(input('three'), 0);
    expect(agg.observe(input('one'), 1).kind).toBe('create');
    expect(agg.observe(input('three'), 1).kind).toBe('bump');
    agg.forget(input('three'));
    expect(agg.observe(input('three'), 2).kind).toBe('create');
  });
});
