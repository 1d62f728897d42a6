import { describe, expect, it } from 'vitest';
import { microtasksDrained } from './settle.js';

describe('microtasksDrained', () => {
  it('resolves only once a chain of microtasks, each queuing the next, has run out', async () => {
    const steps: number[] = [];
    const chain = (n: number): void => {
      if (n === 0) return;
      queueMicrotask(() => {
        steps.push(n);
        chain(n - 1);
      });
    };
    chain(500);
    let awaited = Promise.resolve();
    for (let i = 0; i < 50; i++) awaited = awaited.then(() => undefined);
    let chainDone = false;
    void awaited.then(() => {
      chainDone = true;
    });
    await microtasksDrained();
    expect(steps).toHaveLength(500);
    expect(chainDone).toBe(true);
  });

  it('does not wait for a timer or an immediate', async () => {
    let immediate = false;
    setImmediate(() => {
      immediate = true;
    });
    await microtasksDrained();
    expect(immediate).toBe(false);
  });
});
