import { describe, expect, it } from 'vitest';
import { nodeClaim } from '../provider/testing/fixtures.js';
import { LaunchAttempts, launchClientToken, MaxClientTokenLength } from './client-token.js';

describe('launchClientToken', () => {
  const withUid = (uid: string) =>
    nodeClaim('web-1', [], (c) => {
      c.metadata.uid = uid;
    });

  it('is the uid, then uid-N for later attempts, never past 64 characters', () => {
    const uid = '6f1c2a9e-0000-4000-8000-000000000001';
    expect(launchClientToken(withUid(uid), 0)).toBe(uid);
    expect(launchClientToken(withUid(uid), 3)).toBe(`${uid}-3`);
    expect(launchClientToken(withUid('u'.repeat(80)), 1)).toHaveLength(MaxClientTokenLength);
  });

  it('differs between claims of different names without a uid, and is stable for one', () => {
    const a = launchClientToken(nodeClaim('web-a'), 0);
    expect(a).toBe(launchClientToken(nodeClaim('web-a'), 0));
    expect(a).not.toBe(launchClientToken(nodeClaim('web-b'), 0));
  });
});

describe('LaunchAttempts', () => {
  it('advances a claim past a refused attempt, forgets it once launched', () => {
    const attempts = new LaunchAttempts();
    expect(attempts.next('a')).toBe(0);
    attempts.refused('a', 0);
    attempts.refused('a', 1);
    expect(attempts.next('a')).toBe(2);
    attempts.launched('a');
    expect(attempts.next('a')).toBe(0);
  });

  it('holds at most its capacity, forgetting the claim refused longest ago', () => {
    const attempts = new LaunchAttempts(2);
    attempts.refused('a', 0);
    attempts.refused('b', 0);
    attempts.refused('a', 1);
    attempts.refused('c', 0);
    expect([attempts.next('a'), attempts.next('b'), attempts.next('c')]).toEqual([2, 0, 1]);
  });
});
