import { describe, expect, it } from 'vitest';
import { instanceType, nodePool, pod, solveChecked, solverInput, summarize } from './testing/index.js';
import type { SolverInput } from './types.js';

const run = (input: SolverInput) => summarize(solveChecked(input));

const FAMILY = 'example.com/instance-family';
const GPU = 'example.com/gpu';

/** Two plain types and one that alone carries the GPU label (as a catalog would have them). */
function types() {
  return [
    instanceType('c-4x', { cpu: '4', price: 0.1, labels: { [FAMILY]: 'c' } }),
    instanceType('m-4x', { cpu: '4', price: 0.2, labels: { [FAMILY]: 'm' } }),
    instanceType('g-4x', { cpu: '4', price: 0.5, labels: { [FAMILY]: 'g', [GPU]: 'true' } }),
  ];
}

const wellKnown = { wellKnownLabels: new Set([FAMILY, GPU]) };

function affinity(key: string, operator: string, values?: string[]) {
  return {
    spec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }],
          },
        },
      },
    },
  };
}

describe('solve: provider and catalog well-known labels', () => {
  it('a pod selects a well-known label its NodePool does not name, onto the types carrying the value', () => {
    const input = solverInput({
      pods: [pod('p', { nodeSelector: { [FAMILY]: 'm' } })],
      types: types(),
      extra: wellKnown,
    });
    expect(run(input).claims.map((c) => c.types)).toEqual([['m-4x']]);
  });

  it('without the declaration the same pod is refused: the NodePool does not have the label', () => {
    const input = solverInput({ pods: [pod('p', { nodeSelector: { [FAMILY]: 'm' } })], types: types() });
    expect(run(input).unschedulable).toEqual({
      p: `NodePool default: requires ${FAMILY} In [m], a label the NodePool's nodes do not have`,
    });
  });

  it('Exists on a label only some types carry schedules onto those types only', () => {
    const input = solverInput({
      pods: [pod('p', affinity(GPU, 'Exists'))],
      types: types(),
      extra: wellKnown,
    });
    expect(run(input).claims.map((c) => c.types)).toEqual([['g-4x']]);
  });

  it('DoesNotExist on it keeps the pod off the types that carry it', () => {
    const input = solverInput({
      pods: [pod('p', affinity(GPU, 'DoesNotExist'))],
      types: types(),
      extra: wellKnown,
    });
    expect(run(input).claims.map((c) => c.types)).toEqual([['c-4x', 'm-4x']]);
  });

  it('NotIn admits the types without the label and those with another value', () => {
    const input = solverInput({
      pods: [pod('p', affinity(FAMILY, 'NotIn', ['c']))],
      types: types(),
      extra: wellKnown,
    });
    expect(run(input).claims.map((c) => c.types)).toEqual([['m-4x', 'g-4x']]);
  });

  it('a declared label no type carries: In fails with a reason naming the requirement', () => {
    const input = solverInput({
      pods: [pod('p', { nodeSelector: { 'example.com/fpga': 'xilinx' } })],
      types: types(),
      extra: { wellKnownLabels: new Set(['example.com/fpga']) },
    });
    expect(run(input).unschedulable).toEqual({
      p: 'NodePool default: requirement example.com/fpga In [xilinx] matches no instance type',
    });
  });

  it('a NodePool requirement on the label narrows as before, and the pod must agree with it', () => {
    const pool = nodePool('default', { requirements: [{ key: FAMILY, operator: 'In', values: ['c', 'g'] }] });
    const input = solverInput({
      pods: [pod('gpu', affinity(GPU, 'Exists')), pod('m', { nodeSelector: { [FAMILY]: 'm' } })],
      nodePools: [pool],
      types: types(),
      extra: wellKnown,
    });
    const r = run(input);
    expect(r.claims.map((c) => [c.pods, c.types])).toEqual([[['gpu'], ['g-4x']]]);
    expect(r.unschedulable).toEqual({
      m: `NodePool default: requires ${FAMILY} In [m], NodePool allows In [c, g]`,
    });
  });

  it('an unknown label still fails with its reason when others are declared', () => {
    const input = solverInput({
      pods: [pod('p', { nodeSelector: { 'example.com/team': 'a' } })],
      types: types(),
      extra: wellKnown,
    });
    expect(run(input).unschedulable).toEqual({
      p: "NodePool default: requires example.com/team In [a], a label the NodePool's nodes do not have",
    });
  });
});
