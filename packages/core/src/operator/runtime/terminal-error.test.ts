import { describe, expect, it } from 'vitest';
import { isTerminalReconcileError, TerminalReconcileError } from './terminal-error.js';

describe('isTerminalReconcileError', () => {
  it('finds a terminal error itself or through its causes, and nothing else', () => {
    const terminal = new TerminalReconcileError('impossible');
    expect(isTerminalReconcileError(terminal)).toBe(true);
    expect(
      isTerminalReconcileError(new Error('outer', { cause: new Error('mid', { cause: terminal }) })),
    ).toBe(true);
    expect(isTerminalReconcileError(new Error('transient'))).toBe(false);
    expect(isTerminalReconcileError('a string')).toBe(false);
    const loop = new Error('loop');
    (loop as { cause?: unknown }).cause = loop;
    expect(isTerminalReconcileError(loop)).toBe(false);
  });
});
