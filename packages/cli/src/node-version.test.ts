import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.js';

describe('nodeVersionProblem', () => {
  it('accepts Node 24 and later', () => {
    expect(nodeVersionProblem('24.9.0')).toBeUndefined();
    expect(nodeVersionProblem('v25.0.0')).toBeUndefined();
  });

  it('names the version found and the fix for an older one', () => {
    expect(nodeVersionProblem('20.20.2')).toBe(
      'nodewright needs Node 24 (this is Node 20.20.2); run it through pnpm (pnpm -s nodewright ...), bin/nodewright, or install Node 24',
    );
    expect(nodeVersionProblem('garbage')).toMatch(/^nodewright needs Node 24 /);
  });
});
