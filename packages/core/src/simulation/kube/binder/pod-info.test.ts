import { describe, expect, it } from 'vitest';
import { simPod } from '../test-fixtures.js';
import { DEFAULT_MEMORY_REQUEST, podInfoOf } from './pod-info.js';

describe('podInfoOf', () => {
  it('counts exact requests for fitting and defaulted ones for scoring', () => {
    const info = podInfoOf(
      simPod('p', {
        spec: {
          containers: [
            { name: 'a', resources: { requests: { cpu: '250m' } } },
            { name: 'b', resources: { limits: { memory: '1Gi' } } },
            { name: 'c' },
          ],
        },
      }),
    );
    expect(info.requests.get('cpu')?.toString()).toBe('250m');
    expect(info.requests.get('memory')?.toString()).toBe('1Gi');
    expect(info.requests.get('pods')?.toString()).toBe('1');
    // a: 250m + default memory; b: default cpu + 1Gi limit-as-request; c: both defaults.
    expect(info.nonZeroMilliCpu).toBe(450n);
    expect(info.nonZeroMemory).toBe(2n * DEFAULT_MEMORY_REQUEST + 1024n ** 3n);
  });
});
