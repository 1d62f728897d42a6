import { describe, expect, it } from 'vitest';
import type { RepairPolicy } from '../../cloudprovider/cloud-provider.js';
import { aNode } from '../../testing/node-builder.js';
import { isUnhealthy, poolRepairBudget, repairVerdict } from './repair-verdict.js';

const MIN = 60_000;
const T0 = Date.parse('2026-12-04T09:00:00Z');
const policies: RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * MIN },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * MIN },
  { conditionType: 'DiskPressure', conditionStatus: 'True', tolerationDurationMs: 10 * MIN },
];

function nodeWith(conditions: { type: string; status: 'True' | 'False' | 'Unknown'; since?: number }[]) {
  return aNode({
    status: {
      conditions: conditions.map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.since === undefined ? {} : { lastTransitionTime: new Date(c.since).toISOString() }),
      })),
    },
  });
}

describe('repairVerdict', () => {
  it('is healthy when no policy condition holds', () => {
    expect(
      repairVerdict(nodeWith([{ type: 'Ready', status: 'True', since: T0 }]), policies, T0 + 99 * MIN),
    ).toEqual({ kind: 'healthy' });
  });

  it('tolerates a matching condition until its toleration has passed, then repairs', () => {
    const node = nodeWith([{ type: 'Ready', status: 'Unknown', since: T0 }]);
    expect(repairVerdict(node, policies, T0 + 29 * MIN)).toEqual({
      kind: 'tolerated',
      policy: policies[1],
      recheckInMs: MIN,
    });
    expect(repairVerdict(node, policies, T0 + 30 * MIN)).toEqual({
      kind: 'repair',
      policy: policies[1],
      unhealthyForMs: 30 * MIN,
    });
  });

  it('takes the earliest deadline among several matching policies', () => {
    const node = nodeWith([
      { type: 'Ready', status: 'False', since: T0 },
      { type: 'DiskPressure', status: 'True', since: T0 + 15 * MIN },
    ]);
    expect(repairVerdict(node, policies, T0 + 20 * MIN)).toMatchObject({
      kind: 'tolerated',
      recheckInMs: 5 * MIN,
    });
    expect(repairVerdict(node, policies, T0 + 25 * MIN)).toMatchObject({
      kind: 'repair',
      policy: policies[2],
      unhealthyForMs: 10 * MIN,
    });
  });

  it('counts a condition without a transition time from now, never repairing at once', () => {
    const node = nodeWith([{ type: 'Ready', status: 'False' }]);
    expect(repairVerdict(node, policies, T0)).toMatchObject({ kind: 'tolerated', recheckInMs: 30 * MIN });
  });

  it('does nothing without policies', () => {
    expect(
      repairVerdict(nodeWith([{ type: 'Ready', status: 'False', since: T0 }]), [], T0 + 99 * MIN),
    ).toEqual({
      kind: 'healthy',
    });
  });
});

describe('poolRepairBudget', () => {
  const healthy = nodeWith([{ type: 'Ready', status: 'True', since: T0 }]);
  // Unhealthy from the moment the condition holds, tolerated or not: the count guards the pool.
  const sick = nodeWith([{ type: 'Ready', status: 'False', since: T0 }]);
  const pool = (sickCount: number, total: number) => [
    ...Array.from({ length: sickCount }, () => sick),
    ...Array.from({ length: total - sickCount }, () => healthy),
  ];

  it('allows repair up to 20 % of the pool, rounded up', () => {
    expect(poolRepairBudget(pool(2, 10), policies)).toEqual({
      allowed: true,
      nodes: 10,
      unhealthy: 2,
      threshold: 2,
    });
    expect(poolRepairBudget(pool(1, 3), policies)).toMatchObject({ allowed: true, threshold: 1 });
    expect(poolRepairBudget(pool(1, 1), policies)).toMatchObject({ allowed: true, threshold: 1 });
  });

  it('refuses, with a reason naming the figures, when more than 20 % are unhealthy', () => {
    const budget = poolRepairBudget(pool(3, 10), policies);
    expect(budget).toMatchObject({ allowed: false, unhealthy: 3, threshold: 2 });
    expect(budget.reason).toBe(
      '3 of 10 nodes in the NodePool are unhealthy, more than the 2 (20 %) node repair may replace; not repairing',
    );
    expect(poolRepairBudget(pool(2, 3), policies).allowed).toBe(false);
  });

  it('counts a node unhealthy by any policy', () => {
    expect(isUnhealthy(nodeWith([{ type: 'DiskPressure', status: 'True' }]), policies)).toBe(true);
    expect(isUnhealthy(nodeWith([{ type: 'DiskPressure', status: 'False' }]), policies)).toBe(false);
  });
});
