import { describe, expect, it } from 'vitest';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { UnlimitedDisruptions } from './allowed-disruptions.js';
import { BudgetLedger, type BudgetNode, disruptionBudgets } from './budget-mapping.js';
import { describeBudgetBlock, describeBudgetTaken } from './describe-budget.js';

const node = (name: string, o: Partial<BudgetNode> = {}): BudgetNode => ({
  name,
  nodePool: 'default',
  initialized: true,
  ready: true,
  deleting: false,
  ...o,
});

describe('disruptionBudgets', () => {
  const now = Date.parse('2024-05-01T10:00:00Z');

  it('counts initialized nodes and subtracts NotReady and deleting ones', () => {
    const nodes = [
      node('a'),
      node('b'),
      node('c', { ready: false }),
      node('d', { deleting: true }),
      node('e', { initialized: false }),
      node('f', { initialized: false, ready: false }),
      ...Array.from({ length: 6 }, (_, i) => node(`g${i}`)),
    ];
    const budgets = disruptionBudgets(
      nodes,
      [aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '30%' }] } } })],
      'Empty',
      now,
    );
    const b = budgets.get('default')!;
    // 10 initialized nodes; 30% = 3; c and d already disrupting.
    expect(b.nodes).toBe(10);
    expect(b.disrupting).toEqual(['c', 'd']);
    expect(b.limit.allowed).toBe(3);
    expect(b.allowed).toBe(1);
  });

  it('never goes below zero and gives NodePools without nodes an entry', () => {
    const nodes = [node('a', { ready: false }), node('b', { deleting: true })];
    const budgets = disruptionBudgets(
      nodes,
      [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '1' }] } } }),
        aNodePool({ metadata: { name: 'empty' } }),
      ],
      'Drifted',
      now,
    );
    expect(budgets.get('default')!.allowed).toBe(0);
    expect(budgets.get('empty')).toMatchObject({ nodes: 0, allowed: 0, disrupting: [] });
  });

  it('is unlimited outside every window', () => {
    const p = aNodePool({
      metadata: { name: 'default' },
      spec: { disruption: { budgets: [{ nodes: '0', schedule: '0 9 * * mon-fri', duration: '1h' }] } },
    });
    expect(disruptionBudgets([node('a')], [p], 'Underutilized', now).get('default')!.allowed).toBe(
      UnlimitedDisruptions,
    );
  });
});

describe('BudgetLedger', () => {
  it('takes until the allowance is used up, per NodePool', () => {
    const budgets = disruptionBudgets(
      [node('a'), node('b'), node('c', { nodePool: 'other' })],
      [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '1' }] } } }),
        aNodePool({ metadata: { name: 'other' }, spec: { disruption: { budgets: [{ nodes: '0' }] } } }),
      ],
      'Empty',
      0,
    );
    const ledger = new BudgetLedger(budgets);
    expect(ledger.left('default')).toBe(1);
    expect(ledger.take('default')).toBe(true);
    expect(ledger.take('default')).toBe(false);
    expect(ledger.left('default')).toBe(0);
    expect(ledger.take('other')).toBe(false);
    expect(ledger.take('missing')).toBe(false);
    // A fresh ledger starts again from the mapping.
    expect(new BudgetLedger(budgets).left('default')).toBe(1);
  });
});

describe('budget messages', () => {
  const now = Date.parse('2024-05-01T10:00:00Z');
  it('names the budget that allows nothing, the nodes that used it up, or this pass', () => {
    const hours = aNodePool({
      metadata: { name: 'default' },
      spec: {
        disruption: {
          budgets: [{ nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h', reasons: ['Underutilized'] }],
        },
      },
    });
    const closed = disruptionBudgets([node('a')], [hours], 'Underutilized', now).get('default')!;
    expect(describeBudgetBlock(closed, hours)).toBe(
      'the disruption budget of NodePool default allows no Underutilized disruptions now (budgets[0]: nodes "0", schedule "0 9 * * mon-fri" for 8h, reasons Underutilized, 1 node)',
    );
    const one = aNodePool({
      metadata: { name: 'default' },
      spec: { disruption: { budgets: [{ nodes: '1' }] } },
    });
    const used = disruptionBudgets([node('a'), node('b', { ready: false })], [one], 'Empty', now).get(
      'default',
    )!;
    expect(describeBudgetBlock(used, one)).toBe(
      'the disruption budget of NodePool default allows 1 Empty disruption of 2 nodes (budgets[0]: nodes "1"), used by 1 node already NotReady or deleting (b)',
    );
    const open = disruptionBudgets([node('a')], [one], 'Empty', now).get('default')!;
    expect(describeBudgetTaken(open)).toBe(
      'the disruption budget of NodePool default allows 1 Empty disruption now, all taken by other nodes in this pass',
    );
  });
});
