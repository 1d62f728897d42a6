import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { finishNow } from '../../clock/slices.js';
import { ResourceSlots } from '../resources/resource-vector.js';
import { solve } from './solve.js';
import { SolverCache } from './solver-cache.js';
import { boundPod, existing, node, pods, solverInput, summarize } from './testing/index.js';
import type { ExistingCapacity } from './types.js';

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

describe('SolverCache.existingPreparer', () => {
  const capacity = existing(node('n1'), [boundPod('web', 'n1')]);
  // Reuse is keyed on the DaemonSets array itself, as a solve's input passes it.
  const noDaemonSets: DaemonSet[] = [];
  const gpu = existing(node('n2', { allocatable: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' } }));

  it('reuses a preparation across solves while the capacity, DaemonSets and slots are the same', () => {
    const cache = new SolverCache();
    const first = cache.existingPreparer(noDaemonSets, [], new ResourceSlots())(capacity);
    expect(cache.existingPreparer(noDaemonSets, [], new ResourceSlots())(capacity)).toBe(first);
    expect(cache.existingPreparer(noDaemonSets, [], new ResourceSlots())({ ...capacity })).not.toBe(first);
  });

  it("lends a prepared node's room to each solve without letting one solve's pods use up the next one's", () => {
    const cache = new SolverCache();
    const room = existing(node('n1'), [boundPod('b', 'n1', { cpu: '1' })]);
    const input = solverInput({ pods: pods('p', 3, { cpu: '1' }), existing: [room], extra: { cache } });
    const first = summarize(solve(input));
    expect(first.existing).toEqual({ n1: ['p-0', 'p-1', 'p-2'] });
    expect(first.claims).toEqual([]);
    // The same capacity again, prepared once: had the first solve written into the shared room,
    // these pods would find it full and need a new NodeClaim.
    expect(summarize(solve(input))).toEqual(first);
    expect(summarize(solve({ ...input, pods: pods('q', 3, { cpu: '1' }) })).existing).toEqual({
      n1: ['q-0', 'q-1', 'q-2'],
    });
  });

  it('does not reuse a preparation made before a piece registered a new resource slot', () => {
    const cache = new SolverCache();
    const slots = new ResourceSlots();
    const prepare = cache.existingPreparer(noDaemonSets, [], slots);
    const before = prepare(capacity);
    // The GPU node registers a slot mid-solve: what was prepared before now means other slots.
    prepare(gpu);
    expect(slots.names()).toContain('nvidia.com/gpu');
    const again = prepare(capacity);
    expect(again).not.toBe(before);
    // Kept now: later pieces of this solve, and solves that start with these slots, reuse it.
    expect(prepare(capacity)).toBe(again);
    expect(cache.existingPreparer(noDaemonSets, [], new ResourceSlots(['nvidia.com/gpu']))(capacity)).toBe(
      again,
    );
    // Another DaemonSets array is another overhead: prepared anew.
    expect(cache.existingPreparer([], [], slots)(capacity)).not.toBe(again);
  });
});

describe('SolverCache.preparedExisting', () => {
  const noDaemonSets: DaemonSet[] = [];
  const a = existing(node('a'), [boundPod('web-a', 'a')]);
  const b = existing(node('b'), [], { initialized: false });
  const c = existing(node('c'), [boundPod('web-c', 'c')]);
  const names = (list: readonly { readonly name: string }[]) => list.map((p) => p.name);
  const solve = (cache: SolverCache, capacity: readonly ExistingCapacity[]) =>
    finishNow(cache.preparedExisting(capacity, noDaemonSets, [], new ResourceSlots()));

  it('orders the capacity as pods try it: initialized first, then by name', () => {
    expect(names(solve(new SolverCache(), [c, b, a]))).toEqual(['a', 'c', 'b']);
  });

  it('takes the pieces the last solve had at the same position from it, and prepares the rest', () => {
    const cache = new SolverCache();
    const first = solve(cache, [a, b, c]);
    const marked = cache.marked(c, () => false);
    const second = solve(cache, [a, b, marked]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]!.capacity).toBe(marked);
    expect(second[1]!.pods).toEqual([]);
    expect(names(second)).toEqual(['a', 'c', 'b']);
  });

  it('orders afresh when a piece that differs has another name or initialization', () => {
    const cache = new SolverCache();
    solve(cache, [a, b, c]);
    const early = existing(node('0-first'));
    expect(names(solve(cache, [a, b, early]))).toEqual(['0-first', 'a', 'b']);
    const ready = { ...b, initialized: true };
    expect(names(solve(cache, [a, ready, early]))).toEqual(['0-first', 'a', 'b']);
    expect(names(solve(cache, [a, b, early]))).toEqual(['0-first', 'a', 'b']);
    expect(names(solve(cache, [b, a]))).toEqual(['a', 'b']);
  });
});
