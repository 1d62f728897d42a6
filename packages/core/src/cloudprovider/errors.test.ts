import { describe, expect, it } from 'vitest';
import {
  CreateError,
  InsufficientCapacityError,
  ignoreNodeClaimNotFound,
  isCreateError,
  isInsufficientCapacity,
  isNodeClaimNotFound,
  isNodeClassNotReady,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from './errors.js';

describe('typed provider errors', () => {
  it('are told apart by their predicates', () => {
    const errors = [
      new NodeClaimNotFoundError('gone'),
      new InsufficientCapacityError('no capacity', ['spot:m5.large:us-east-1a']),
      new NodeClassNotReadyError('not ready'),
      new CreateError('LaunchTemplateNotFound', 'template lt-1 missing'),
    ];
    const predicates = [isNodeClaimNotFound, isInsufficientCapacity, isNodeClassNotReady, isCreateError];
    for (const [i, err] of errors.entries()) {
      expect(predicates.map((p) => p(err))).toEqual(predicates.map((_, j) => j === i));
    }
  });

  it('CreateError carries the condition reason and message', () => {
    const err = new CreateError('QuotaExceeded', 'vCPU quota of 32 reached');
    expect(err.conditionReason).toBe('QuotaExceeded');
    expect(err.conditionMessage).toBe('vCPU quota of 32 reached');
    expect(err.message).toBe('QuotaExceeded: vCPU quota of 32 reached');
  });

  it('ignoreNodeClaimNotFound swallows only NotFound', () => {
    expect(() => ignoreNodeClaimNotFound(new NodeClaimNotFoundError('x'))).not.toThrow();
    expect(() => ignoreNodeClaimNotFound(new Error('boom'))).toThrow('boom');
  });
});
