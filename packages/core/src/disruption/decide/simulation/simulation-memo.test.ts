import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { SolveChannel } from '../../../scheduling/solver/solve.js';
import { boundPod, cluster, managedNode } from '../../../testing/disruption-builders.js';
import { simulateRescheduling } from './simulate-rescheduling.js';
import { SimulationMemo } from './simulation-memo.js';

describe('SimulationMemo', () => {
  let solves = 0;
  const count = () => {
    solves++;
  };
  afterEach(() => {
    unsubscribe(SolveChannel.name, count);
    solves = 0;
  });

  const snapshot = cluster({
    nodes: [
      { node: managedNode('a'), pods: [boundPod('web', 'a')] },
      { node: managedNode('b'), pods: [boundPod('api', 'b')] },
      { node: managedNode('c') },
    ],
  });

  it('answers a simulation already run over the snapshot without solving again, the same result', () => {
    const memo = new SimulationMemo();
    const withMemo = { ...snapshot, simulations: memo };
    subscribe(SolveChannel.name, count);
    const first = simulateRescheduling(withMemo, new Set(['a']));
    expect(solves).toBe(1);
    expect(simulateRescheduling(withMemo, new Set(['a']))).toBe(first);
    expect(solves).toBe(1);
    expect(first).toEqual(simulateRescheduling(snapshot, new Set(['a'])));
    expect(memo.size).toBe(1);
  });

  it('tells candidates sets and solver options apart, whatever the candidates order', () => {
    const memo = new SimulationMemo();
    const withMemo = { ...snapshot, simulations: memo };
    subscribe(SolveChannel.name, count);
    simulateRescheduling(withMemo, new Set(['a', 'b']));
    simulateRescheduling(withMemo, new Set(['b', 'a']));
    expect(solves).toBe(1);
    const relaxed = simulateRescheduling(withMemo, new Set(['a']), { ignorePreferences: true });
    const strict = simulateRescheduling(withMemo, new Set(['a']));
    expect(solves).toBe(3);
    expect(relaxed).not.toBe(strict);
    expect(memo.size).toBe(3);
  });
});
