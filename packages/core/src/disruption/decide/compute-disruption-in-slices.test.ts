import { describe, expect, it } from 'vitest';
import { cluster, nodesWithPods, T0 } from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { steppingSlices } from '../../testing/stepping-slices.js';
import { computeDisruption, computeDisruptionInSlices } from './compute-disruption.js';

/** NodePool `default` with a budget that allows every node: these tests are not about budgets. */
const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];

describe('computeDisruptionInSlices', () => {
  it('decides byte for byte what computeDisruption decides, with turns between (multi-node)', async () => {
    const nodes = [...nodesWithPods('a', 60, 1, '1'), ...nodesWithPods('b', 60, 1, '500m')];
    const snapshot = cluster({ pools: everyNode, nodes });
    const { slices, turns } = steppingSlices(1, 5);
    const sliced = await computeDisruptionInSlices(snapshot, T0, slices);
    const whole = computeDisruption(snapshot, T0);
    expect(sliced.commands[0]?.method).toBe('multi-node-consolidation');
    expect(JSON.stringify(sliced)).toBe(JSON.stringify(whole));
    expect(turns()).toBeGreaterThan(10);
  });

  it('decides what computeDisruption decides when single-node consolidation wins', async () => {
    // One node: multi-node needs two, so single-node decides.
    const snapshot = cluster({ pools: everyNode, nodes: nodesWithPods('n', 1, 1, '1') });
    const { slices, turns } = steppingSlices(1, 1);
    const sliced = await computeDisruptionInSlices(snapshot, T0, slices);
    expect(sliced.commands[0]?.method).toBe('single-node-consolidation');
    expect(JSON.stringify(sliced)).toBe(JSON.stringify(computeDisruption(snapshot, T0)));
    expect(turns()).toBeGreaterThan(0);
  });
});
