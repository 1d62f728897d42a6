import { describe, expect, it } from 'vitest';
import { isReconcilePanic } from './panic.js';

describe('isReconcilePanic', () => {
  it('calls programming errors panics', () => {
    const undefinedObject = undefined as unknown as { spec: { size: number } };
    let caught: unknown;
    try {
      undefinedObject.spec.size;
    } catch (err) {
      caught = err;
    }
    expect(isReconcilePanic(caught)).toBe(true);
    expect(isReconcilePanic(new RangeError('Invalid array length'))).toBe(true);
  });

  it('does not call errors thrown on purpose panics', () => {
    expect(isReconcilePanic(new Error('conflict'))).toBe(false);
    expect(isReconcilePanic('a string')).toBe(false);
    expect(isReconcilePanic(undefined)).toBe(false);
  });
});
