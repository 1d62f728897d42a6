import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { SolverCache } from './solver-cache.js';
import { boundPod, existing, node } from './testing/index.js';

describe('SolverCache.marked', () => {
  const n = node('n1');
  const daemon = boundPod('daemon', 'n1');
  const web = boundPod('web', 'n1');
  const capacity = existing(n, [daemon, web]);
  const stays = (p: Pod) => p === daemon;

  it('marks the capacity for deletion and keeps only the pods that stay, leaving the original alone', () => {
    const marked = new SolverCache().marked(capacity, stays);
    expect(marked.markedForDeletion).toBe(true);
    expect(marked.pods).toEqual([daemon]);
    expect(marked.node).toBe(n);
    expect(capacity.markedForDeletion).toBeUndefined();
    expect(capacity.pods).toEqual([daemon, web]);
  });

  it('answers the same object while the capacity and the rule are the same, so its preparation is reused', () => {
    const cache = new SolverCache();
    const first = cache.marked(capacity, stays);
    expect(cache.marked(capacity, stays)).toBe(first);
    const otherRule = (p: Pod) => p === web;
    const other = cache.marked(capacity, otherRule);
    expect(other).not.toBe(first);
    expect(other.pods).toEqual([web]);
    expect(cache.marked({ ...capacity }, otherRule)).not.toBe(other);
  });
});
