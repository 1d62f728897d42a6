import { describe, expect, it } from 'vitest';
import { aNodeClaimFor } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { terminationMode } from './metrics.js';

describe('terminationMode', () => {
  const pool = aNodePool();
  const claim = (terminationGracePeriod?: string) =>
    aNodeClaimFor(pool, terminationGracePeriod === undefined ? {} : { spec: { terminationGracePeriod } });

  it("is Karpenter's label for how a disrupted claim ends: by its terminationGracePeriod", () => {
    expect(terminationMode(claim())).toBe('graceful');
    expect(terminationMode(claim('0s'))).toBe('forceful');
    expect(terminationMode(claim('30m'))).toBe('eventual');
  });
});
