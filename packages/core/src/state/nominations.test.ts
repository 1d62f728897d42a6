import { describe, expect, it } from 'vitest';
import { aPod } from '../testing/pod-builder.js';
import { Nominations } from './nominations.js';

describe('Nominations', () => {
  const pod = aPod({ metadata: { name: 'web', uid: 'u1' } });

  it('lasts for the window, then the pod is free again', () => {
    const n = new Nominations(20_000);
    n.nominate(pod, { nodeClaim: 'default-a' }, 1_000);
    expect(n.targetOf(pod, 20_999)).toEqual({ nodeClaim: 'default-a' });
    expect(n.targetOf(pod, 21_000)).toBeUndefined();
    expect(n.nextExpiry(5_000)).toBe(21_000);
    expect(n.nextExpiry(21_000)).toBeUndefined();
  });

  it('a nomination its owner holds outlives the window, and ends by it once the hold is let go', () => {
    const held = new Set(['default-a']);
    const n = new Nominations(20_000, (target) => held.has(target.nodeClaim ?? ''));
    n.nominate(pod, { nodeClaim: 'default-a' }, 1_000);
    n.prune(60_000);
    expect(n.targetOf(pod, 60_000)).toEqual({ nodeClaim: 'default-a' });
    expect(n.count(60_000)).toBe(1);
    // Its window still wakes whoever waits on it; past the window there is no time to wait for.
    expect(n.nextExpiry(5_000)).toBe(21_000);
    expect(n.nextExpiry(60_000)).toBeUndefined();
    held.clear();
    expect(n.targetOf(pod, 60_000)).toBeUndefined();
    n.prune(60_000);
    expect(n.count(0)).toBe(0);
  });

  it('renewTarget opens the window again for the pods nominated there, and only for them', () => {
    const n = new Nominations(20_000);
    const other = aPod({ metadata: { name: 'api' } });
    n.nominate(pod, { nodeClaim: 'c1' }, 0);
    n.nominate(other, { nodeClaim: 'c2' }, 0);
    n.renewTarget('c1', 50_000);
    expect(n.targetOf(pod, 69_999)).toEqual({ nodeClaim: 'c1' });
    expect(n.targetOf(pod, 70_000)).toBeUndefined();
    expect(n.targetOf(other, 50_000)).toBeUndefined();
  });

  it('a pod recreated under the same name (new uid) is not nominated', () => {
    const n = new Nominations();
    n.nominate(pod, { node: 'n1' }, 0);
    expect(n.targetOf(aPod({ metadata: { name: 'web', uid: 'u2' } }), 1)).toBeUndefined();
  });

  it('release ends the pod nomination but the target stays nominated for the window', () => {
    const n = new Nominations(10_000);
    n.nominate(pod, { nodeClaim: 'c1', node: 'n1' }, 0);
    n.release(pod);
    expect(n.targetOf(pod, 1)).toBeUndefined();
    expect(n.isTargetNominated('c1', 1)).toBe(true);
    expect(n.isTargetNominated('n1', 9_999)).toBe(true);
    expect(n.isTargetNominated('n1', 10_000)).toBe(false);
  });

  it('releaseTarget ends every nomination to that node or claim', () => {
    const n = new Nominations();
    const other = aPod({ metadata: { name: 'api' } });
    n.nominate(pod, { nodeClaim: 'c1' }, 0);
    n.nominate(other, { node: 'n2' }, 0);
    n.releaseTarget('c1');
    expect(n.targetOf(pod, 1)).toBeUndefined();
    expect(n.isTargetNominated('c1', 1)).toBe(false);
    expect(n.targetOf(other, 1)).toEqual({ node: 'n2' });
    expect(n.count(1)).toBe(1);
  });

  it('a renewed nomination replaces the earlier one', () => {
    const n = new Nominations(20_000);
    n.nominate(pod, { nodeClaim: 'c1' }, 0);
    n.nominate(pod, { nodeClaim: 'c2' }, 15_000);
    expect(n.targetOf(pod, 30_000)).toEqual({ nodeClaim: 'c2' });
    n.prune(35_000);
    expect(n.count(0)).toBe(0);
  });
});
