import { timedFailure } from '@nodewright/core/testing';
import { gceSdk, parseGcpSettings } from '@nodewright/gcp';
import { afterEach, describe, expect, it } from 'vitest';
import { type GcpMock, startGcpMock } from './gcp-mock.js';

// Every Compute Engine call the GCP provider makes has a deadline: a call the mock holds without
// answering fails at the deadline with an error naming the RPC, instead of after gax's 600 s
// default, which would hold a launch and the worker running it.

let mock: GcpMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('gcp clients: call deadlines', () => {
  it('a call held past the request deadline fails naming the operation, not after the hold', async () => {
    mock = await startGcpMock();
    mock.faults.latencyNext('instances.get', 600_000, 100);
    const settings = parseGcpSettings({
      project: mock.project,
      region: 'us-central1',
      endpoint: mock.baseUrl,
      anonymous: 'true',
      requestTimeout: '300ms',
    });
    const { compute } = await gceSdk(settings);
    try {
      const { err, ms } = await timedFailure(compute.getInstance('us-central1-a', 'vm-1'));
      expect(err.message).toMatch(
        /^Total timeout of API google\.cloud\.compute\.v1\.Instances exceeded 300 milliseconds .*Deadline exceeded: get did not respond within/,
      );
      expect(ms).toBeGreaterThanOrEqual(290);
      expect(ms).toBeLessThan(20_000);
      console.info(
        JSON.stringify({
          message: 'fault measured',
          fault: 'GCE instances.get held 600 s, requestTimeout 300ms',
          'failed-after-ms': Math.round(ms),
          error: err.message,
        }),
      );
      // The hold was for instances.get only: other calls are answered at once.
      await expect(compute.listInstances('us-central1-a', '')).resolves.toEqual([]);
    } finally {
      await compute.close();
    }
  });
});
