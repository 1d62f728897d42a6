import { describe, expect, it } from 'vitest';
import { ReconcileQueue } from './reconcile-queue.js';

describe('ReconcileQueue', () => {
  it('processes each queued key once, in sorted order, including keys added while draining', async () => {
    const seen: string[] = [];
    const queue: ReconcileQueue = new ReconcileQueue(async (key) => {
      seen.push(key);
      if (key === 'a') void queue.enqueue('c', 'b');
    });
    await Promise.all([queue.enqueue('b', 'a'), queue.enqueue('a')]);
    expect(seen).toEqual(['a', 'b', 'c']);
    await queue.enqueue('z');
    expect(seen).toEqual(['a', 'b', 'c', 'z']);
  });

  it('rejects only the drain that started the work, after finishing the rest', async () => {
    const seen: string[] = [];
    const queue = new ReconcileQueue(async (key) => {
      seen.push(key);
      if (key === 'bad') throw new Error('boom');
    });
    const first = queue.enqueue('bad', 'good');
    const second = queue.enqueue('later');
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBeUndefined();
    expect(seen).toEqual(['bad', 'good', 'later']);
  });
});
