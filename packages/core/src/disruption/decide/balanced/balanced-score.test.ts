import { describe, expect, it } from 'vitest';
import { standardTypes } from '../../../scheduling/solver/testing/builders.js';
import { boundPod, managedNode } from '../../../testing/disruption-builders.js';
import {
  balancedVerdict,
  describeRejection,
  poolTotals,
  rescheduleDisruptionCost,
  type ScoredCandidate,
  scoredMoves,
  scoreMove,
} from './balanced-score.js';

const pods = (n: number) => Array.from({ length: n }, (_, i) => boundPod(`p${i}`, 'n'));

describe('Balanced consolidation score', () => {
  it('costs a node 1 plus its pods’ eviction costs, never less than 0 each', () => {
    expect(rescheduleDisruptionCost([])).toBe(1);
    expect(rescheduleDisruptionCost(pods(3))).toBe(4);
    const cheap = boundPod('cheap', 'n', {
      annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(-(2 ** 31)) },
    });
    expect(rescheduleDisruptionCost([cheap])).toBe(1);
  });

  it('approves a move whose share of savings is at least half its share of disruption', () => {
    const totals = { cost: 1, disruptionCost: 10 };
    expect(scoreMove('p', 0.25, 5, totals)).toMatchObject({ score: 0.5, approved: true });
    expect(scoreMove('p', 0.2, 5, totals)).toMatchObject({ score: 0.4, approved: false });
    // Nothing saved, or nothing to normalise by: not approved.
    expect(scoreMove('p', 0, 5, totals).approved).toBe(false);
    expect(scoreMove('p', 0.25, 5, { cost: 0, disruptionCost: 0 }).approved).toBe(false);
    expect(scoreMove('p', 0.25, 5, undefined).approved).toBe(false);
  });

  it('totals every node of a pool, candidate or not, at its offering price', () => {
    const types = new Map([['default', standardTypes()]]);
    const totals = poolTotals(
      [
        { nodePool: 'default', labels: managedNode('a').metadata.labels ?? {}, reschedulable: pods(2) },
        { nodePool: 'default', labels: managedNode('b').metadata.labels ?? {}, reschedulable: [] },
      ],
      types,
    );
    const medium = standardTypes().find((t) => t.name === 'medium')!;
    const price = Math.min(
      ...medium.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => o.price),
    );
    expect(totals.get('default')?.disruptionCost).toBe(4);
    expect(totals.get('default')?.cost).toBeCloseTo(2 * price);
  });

  it('scores each Balanced pool of a move on its share of the savings, and ignores other policies', () => {
    const candidate = (
      nodePool: string,
      consolidationPolicy: string,
      price: number,
      n: number,
    ): ScoredCandidate => ({
      nodePool,
      consolidationPolicy,
      price,
      reschedulable: pods(n),
    });
    const totals = new Map([
      ['a', { cost: 4, disruptionCost: 20 }],
      ['b', { cost: 4, disruptionCost: 20 }],
    ]);
    expect(balancedVerdict([candidate('a', 'WhenEmptyOrUnderutilized', 1, 1)], 1, totals)).toBeUndefined();
    // Pool a: saves 3/4 of 2 = 1.5 of 4 (0.375) for 2 of 20 (0.1): approved. Pool b: saves 0.5 of 4
    // (0.125) for 10 of 20 (0.5): 0.25, rejected; so is the move.
    const verdict = balancedVerdict(
      [candidate('a', 'Balanced', 3, 1), candidate('b', 'Balanced', 1, 9)],
      2,
      totals,
    );
    expect(verdict?.approved).toBe(false);
    expect(verdict?.scores.map((s) => [s.nodePool, s.approved])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(
      scoredMoves([candidate('b', 'Balanced', 1, 9), candidate('a', 'Balanced', 3, 1)], 'rejected', verdict),
    ).toEqual([
      { decision: 'rejected', nodePool: 'a', policy: 'Balanced', score: { value: 3.75, approved: true } },
      { decision: 'rejected', nodePool: 'b', policy: 'Balanced', score: { value: 0.25, approved: false } },
    ]);
    expect(describeRejection(verdict?.scores ?? [])).toBe(
      "NodePool b has consolidationPolicy Balanced and the move scores 0.25, below 0.5: it saves 12.5 % of the pool's cost for 50 % of its disruption",
    );
  });
});
