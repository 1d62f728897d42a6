import { describe, expect, it } from 'vitest';
import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { PodDisruptionBudget } from '../../apis/kubernetes/pod-disruption-budget.js';
import { NodeInfo } from '../kube/binder/node-info.js';
import { podInfoOf } from '../kube/binder/pod-info.js';
import { blocksScaleDown, ClusterAutoscalerDefaults, isUnneeded, utilisation } from './cluster-autoscaler.js';

const pod = (name: string, annotations: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations, labels },
    spec: {
      nodeName: 'n',
      containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    },
    status: { phase: 'Running' },
  }) as unknown as Pod;

const pdb = (allowed: number) =>
  ({
    metadata: { name: 'b', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } } },
    status: { disruptionsAllowed: allowed },
  }) as unknown as PodDisruptionBudget;

describe('blocksScaleDown', () => {
  it('honours safe-to-evict "false", do-not-disrupt and PDBs at zero', () => {
    expect(blocksScaleDown(pod('a'), [])).toBe(false);
    expect(blocksScaleDown(pod('a', { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' }), [])).toBe(
      true,
    );
    expect(blocksScaleDown(pod('a', { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true' }), [])).toBe(
      false,
    );
    expect(blocksScaleDown(pod('a', { 'karpenter.sh/do-not-disrupt': 'true' }), [])).toBe(true);
    expect(blocksScaleDown(pod('a', {}, { app: 'web' }), [pdb(0)])).toBe(true);
    expect(blocksScaleDown(pod('a', {}, { app: 'web' }), [pdb(1)])).toBe(false);
    expect(blocksScaleDown(pod('a', {}, { app: 'api' }), [pdb(0)])).toBe(false);
  });
});

/** A node of 4 cpu and 16Gi with the given pods on it. */
function nodeWith(...pods: Pod[]): NodeInfo {
  const info = new NodeInfo('n');
  info.setNode({
    metadata: { name: 'n' },
    spec: {},
    status: { allocatable: { cpu: '4', memory: '16Gi' } },
  } as unknown as Node);
  for (const p of pods) info.add(podInfoOf(p));
  return info;
}

describe('utilisation', () => {
  it('is the larger of requested/allocatable cpu and memory', () => {
    expect(utilisation(nodeWith())).toBe(0);
    // cpu 1/4 beats memory 1/16.
    expect(utilisation(nodeWith(pod('a')))).toBeCloseTo(0.25, 9);
  });
});

describe('isUnneeded', () => {
  it('scale-down-utilization-threshold 0.5: a node is unneeded strictly below half used', () => {
    const threshold = ClusterAutoscalerDefaults.scaleDownUtilizationThreshold;
    // 1 cpu each on 4: one pod is 25 %, two are exactly 50 %.
    expect(isUnneeded(nodeWith(pod('a')), threshold)).toBe(true);
    expect(isUnneeded(nodeWith(pod('a'), pod('b')), threshold)).toBe(false);
  });
});
