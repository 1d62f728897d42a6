import { describe, expect, it } from 'vitest';
import { parseTryKwokSteps } from './try-kwok-log.js';

describe('parseTryKwokSteps', () => {
  it('reads the finished steps and their durations, skipping progress and other output', () => {
    const stderr = [
      '[try-kwok] step build: kind, node image, controller image, helm (0s)',
      '[kind-node] nodewright-local/kind-node:v1.36.5-a753a2d85327 exists',
      '[try-kwok] step build done in 12s (12s)',
      '[try-kwok] step cluster: kind cluster nw (12s)',
      'Creating cluster "nw" ...',
      '[try-kwok] step cluster done in 28s (40s)',
      '[try-kwok] step kwok: kwok controller and stages (40s)',
      '[try-kwok] FAILED at step kwok (exit 1): bash install-kwok.sh (61s)',
    ].join('\n');
    expect(parseTryKwokSteps(stderr)).toEqual([
      { step: 'build', seconds: 12 },
      { step: 'cluster', seconds: 28 },
    ]);
  });

  it('finds nothing in output that is not a try-kwok.sh run', () => {
    expect(parseTryKwokSteps('step build done in 3s\n[try-kwok] step build done in soon')).toEqual([]);
  });
});
