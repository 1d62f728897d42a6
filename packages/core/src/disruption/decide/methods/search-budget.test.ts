import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../clock/clock.js';
import { boundPod, cluster, managedNode, nodesWithPods, T0 } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { computeDisruption } from '../compute-disruption.js';

/** NodePool `default` with a budget that allows every node: these tests are about time, not budgets. */
const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];

/** A clock that moves `stepMs` forward every time it is read: each budget check costs that much. */
function tickingClock(stepMs: number): Clock {
  let now = 0;
  return {
    now() {
      now += stepMs;
      return now;
    },
  };
}

describe('consolidation time budgets', () => {
  it('multi-node consolidation keeps the largest set found when its budget runs out', () => {
    // Eight on-demand mediums with one 1-cpu pod each; unbounded, the binary search tries 5, 7
    // and 8 nodes and deletes 7 (their pods fit on the eighth). With 40 s per read the check
    // at 40 s passes the 60 s budget and the one at 80 s stops the search after the 5-node set.
    const snapshot = cluster({ pools: everyNode, nodes: nodesWithPods('n', 8, 1, '1') });
    const unbounded = computeDisruption(snapshot, T0);
    expect(unbounded.commands[0]?.candidates).toHaveLength(7);
    expect(unbounded.cutShort).toEqual([]);

    const result = computeDisruption(snapshot, T0, { searchClock: tickingClock(40_000) });
    expect(result.commands).toHaveLength(1);
    expect(result.commands[0]).toMatchObject({ method: 'multi-node-consolidation' });
    expect(result.commands[0]!.candidates).toEqual(unbounded.commands[0]!.candidates.slice(0, 5));
    expect(result.cutShort).toHaveLength(1);
    const [cut] = result.cutShort;
    expect(cut).toMatchObject({
      method: 'multi-node-consolidation',
      budgetMs: 60_000,
      elapsedMs: 80_000,
      attempts: 1,
      skipped: ['n-5', 'n-6', 'n-7'],
    });
    expect(cut!.message).toBe(
      'multi-node-consolidation stopped at its time budget of 60 s after 80 s and 1 simulation; kept the largest set found, 5 nodes; not tried: n-5, n-6, n-7',
    );
  });

  it('single-node consolidation stops trying candidates when its budget runs out, and names the rest', () => {
    // Three nodes whose pods are pinned to them: no set and no single node consolidates. With
    // 100 s per read, multi-node's first check (100 s) is past its 60 s: no simulation at all.
    // Single-node starts at 300 s, tries one node at 400 s, and stops at 500 s (200 s > 180 s).
    const pinned = (name: string) => ({
      node: managedNode(name),
      pods: [boundPod(`${name}-p`, name, { spec: { nodeSelector: { 'kubernetes.io/hostname': name } } })],
    });
    const snapshot = cluster({ pools: everyNode, nodes: [pinned('a'), pinned('b'), pinned('c')] });
    const clock = tickingClock(100_000);
    const result = computeDisruption(snapshot, T0, { searchClock: clock });
    expect(result.commands).toEqual([]);
    const [multi, single] = result.cutShort;
    expect(multi).toMatchObject({
      method: 'multi-node-consolidation',
      attempts: 0,
      skipped: ['a', 'b', 'c'],
    });
    expect(multi!.message).toContain('no command found');
    expect(single).toMatchObject({
      method: 'single-node-consolidation',
      budgetMs: 180_000,
      elapsedMs: 200_000,
      attempts: 1,
      skipped: ['b', 'c'],
    });
    const notes = Object.fromEntries(result.nodes.map((n) => [n.node, n.note]));
    expect(notes.a).toMatch(/^not consolidated: its pods would not all reschedule/);
    expect(notes.b).toBe(
      'not tried: single-node consolidation ran out of its time budget (180 s) before this node',
    );
    expect(notes.c).toBe(notes.b);
    // Only the node consolidation simulated is Unconsolidatable; the skipped ones were not judged.
    const untaken = Object.fromEntries(result.nodes.map((n) => [n.node, n.unconsolidatable]));
    expect(untaken.a).toMatch(/^its pods would not all reschedule/);
    expect(untaken.b).toBeUndefined();
    expect(untaken.c).toBeUndefined();
  });

  it('without a clock, or within budget, the search runs to the end', () => {
    const snapshot = cluster({ pools: everyNode, nodes: nodesWithPods('n', 8, 1, '1') });
    const result = computeDisruption(snapshot, T0, { searchClock: tickingClock(1) });
    expect(result.commands[0]?.candidates).toHaveLength(7);
    expect(result.cutShort).toEqual([]);
  });
});
