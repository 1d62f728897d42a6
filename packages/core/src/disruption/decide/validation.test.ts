import { describe, expect, it } from 'vitest';
import { boundPod, cluster, managedNode, nodesWithPods, T0 } from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { steppingSlices } from '../../testing/stepping-slices.js';
import { computeDisruption } from './compute-disruption.js';
import { validateCommand, validateCommandInSlices } from './validation.js';

/** NodePool `default` with a budget that allows every node: these tests are not about budgets. */
const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];

describe('validateCommand', () => {
  const snapshot = cluster({ pools: everyNode, nodes: nodesWithPods('n', 4, 1, '1') });
  const [command] = computeDisruption(snapshot, T0).commands;

  it('accepts a command on an unchanged cluster', () => {
    expect(command?.method).toBe('multi-node-consolidation');
    expect(validateCommand(command!, snapshot, T0 + 15_000)).toEqual({ valid: true });
  });

  it('gives the same answers in slices, with turns between', async () => {
    const { slices, turns } = steppingSlices(1, 2);
    expect(await validateCommandInSlices(command!, snapshot, T0 + 15_000, slices)).toEqual({ valid: true });
    const full = cluster({ pools: everyNode, nodes: nodesWithPods('n', 4, 2, '1') });
    expect(await validateCommandInSlices(command!, full, T0 + 15_000, slices)).toEqual(
      validateCommand(command!, full, T0 + 15_000),
    );
    expect(validateCommand(command!, full, T0 + 15_000).valid).toBe(false);
    expect(turns()).toBeGreaterThan(0);
  });

  it('rejects it once a candidate got a pod that must not be disrupted', () => {
    const later = cluster({
      pools: everyNode,
      nodes: nodesWithPods('n', 4, 1, '1').map((n, i) =>
        i === 2
          ? {
              ...n,
              pods: [
                ...(n.pods ?? []),
                boundPod('guarded', 'n-2', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
              ],
            }
          : n,
      ),
    });
    expect(validateCommand(command!, later, T0 + 15_000)).toEqual({
      valid: false,
      reason: 'node n-2: pod default/guarded has karpenter.sh/do-not-disrupt',
    });
  });

  it('rejects it when the budget closed meanwhile, or a node is gone', () => {
    const closed = cluster({
      nodes: nodesWithPods('n', 4, 1, '1'),
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '2' }] } } }),
      ],
    });
    expect(validateCommand(command!, closed, T0)).toEqual({
      valid: false,
      reason: 'the disruption budget of NodePool default no longer allows disrupting n-2',
    });
    const fewer = cluster({ pools: everyNode, nodes: nodesWithPods('n', 3, 1, '1') });
    expect(validateCommand(command!, fewer, T0)).toEqual({
      valid: false,
      reason: 'node n-3 is no longer in the cluster',
    });
  });

  it('rejects a delete that would now need a replacement', () => {
    const big = managedNode('big', { type: 'large', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } });
    const roomy = cluster({ pools: everyNode, nodes: [...nodesWithPods('m', 2, 1, '1'), { node: big }] });
    const [del] = computeDisruption(roomy, T0).commands;
    expect(del).toMatchObject({ method: 'multi-node-consolidation', replacements: [] });
    expect(validateCommand(del!, roomy, T0)).toEqual({ valid: true });
    const full = cluster({
      pools: everyNode,
      nodes: [
        ...nodesWithPods('m', 2, 1, '1'),
        { node: big, pods: [boundPod('hog', 'big', { cpu: '15500m' })] },
      ],
    });
    expect(validateCommand(del!, full, T0)).toEqual({
      valid: false,
      reason: 'deleting would now need a replacement',
    });
  });

  it('checks emptiness and drift commands too', () => {
    const idle = cluster({ pools: everyNode, nodes: [{ node: managedNode('idle') }] });
    const [empty] = computeDisruption(idle, T0).commands;
    expect(validateCommand(empty!, idle, T0)).toEqual({ valid: true });
    const busy = cluster({
      pools: everyNode,
      nodes: [{ node: managedNode('idle'), pods: [boundPod('arrived', 'idle')] }],
    });
    expect(validateCommand(empty!, busy, T0)).toEqual({
      valid: false,
      reason: 'node idle: node is not empty',
    });
  });
});
