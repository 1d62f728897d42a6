import { awsClients, parseAwsSettings } from '@nodewright/aws';
import { afterEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

// Every SDK call the AWS provider makes has a deadline: a call EC2 holds without answering
// fails at the deadline (then the SDK's retry strategy, then the caller's), instead of holding
// a launch and the worker running it for as long as the cloud likes.

let mock: AwsMock | undefined;
afterEach(async () => {
  await mock?.close();
});

describe('aws clients: call deadlines', () => {
  it('a call held past the request deadline fails with a timeout, each attempt at the deadline', async () => {
    mock = await startAwsMock({ cluster: 'c1' });
    mock.faults.latency('DescribeSubnets', 600_000);
    const settings = parseAwsSettings({
      region: mock.region,
      endpoint: mock.endpoint,
      accessKeyId: mock.clientConfig.credentials.accessKeyId,
      secretAccessKey: mock.clientConfig.credentials.secretAccessKey,
      kubernetesVersion: mock.seed.kubernetesVersion,
      clusterEndpoint: 'https://api.c1.example.com',
      caBundle: Buffer.from('c1 CA').toString('base64'),
    });
    const clients = await awsClients(settings, { requestTimeoutMs: 300, connectionTimeoutMs: 1_000 });
    try {
      const began = performance.now();
      const failure = await clients.ec2.describeSubnets({}).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      const tookMs = performance.now() - began;
      expect(failure?.name).toMatch(/Timeout/);
      // Three attempts (the standard strategy) of 300 ms each plus backoff: seconds, not 600 s.
      expect(tookMs).toBeLessThan(30_000);
      expect(tookMs).toBeGreaterThanOrEqual(300);
      expect(failure?.message).toMatch(/exceeded the configured 300 ms requestTimeout/);
    } finally {
      clients.destroy();
    }
  });
});
