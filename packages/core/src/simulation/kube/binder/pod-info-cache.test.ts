import { describe, expect, it } from 'vitest';
import { simPod } from '../test-fixtures.js';
import { PodInfoCache } from './pod-info-cache.js';

describe('PodInfoCache', () => {
  it('derives a pod once per object, and gives replicas of one template one signature', () => {
    const cache = new PodInfoCache();
    const created = simPod('web-1', { cpu: '500m', labels: { app: 'web' } });
    const a = { ...created, metadata: { ...created.metadata, creationTimestamp: '2026-03-01T00:00:05Z' } };
    const b = simPod('web-2', { cpu: '500m', labels: { app: 'web' } });
    const other = simPod('web-3', { cpu: '750m', labels: { app: 'web' } });
    const first = cache.of(a);
    expect(cache.of(a)).toBe(first);
    if (!('info' in first)) throw new Error('expected a PodInfo');
    expect(first.info.requests.get('cpu')?.toString()).toBe('500m');
    expect(first.createdMs).toBe(Date.parse('2026-03-01T00:00:05Z'));
    expect(cache.of(simPod('no-timestamp')).createdMs).toBe(0);
    const second = cache.of(b);
    expect('signature' in second && second.signature).toBe(first.signature);
    const third = cache.of(other);
    expect('signature' in third && third.signature).not.toBe(first.signature);
  });

  it('keeps why a pod has no PodInfo', () => {
    const cache = new PodInfoCache();
    const bad = simPod('bad', { cpu: 'lots' });
    const derived = cache.of(bad);
    expect('error' in derived && derived.error.message).toMatch(/lots/);
    expect(cache.of(bad)).toBe(derived);
  });
});
