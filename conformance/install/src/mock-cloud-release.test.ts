import { describe, expect, it } from 'vitest';
import { credentialsSecret, type MockCloudRelease, mockCloudReleaseValues } from './mock-cloud-release.js';

const release: MockCloudRelease = {
  image: 'nodewright:src-0123abcd',
  settings: {
    region: 'us-east-1',
    endpoint: 'http://172.18.0.1:41234',
    accessKeyId: 'AKIAMOCK',
    secretAccessKey: 'mock-secret',
    interruptionQueue: 'nw-interruption',
  },
  secretSettings: ['accessKeyId', 'secretAccessKey', 'sessionToken'],
  secretName: 'aws-mock-credentials',
  clusterName: 'nw-kind',
  leaderElectionId: 'nodewright-aws',
};

describe('mockCloudReleaseValues', () => {
  it('keeps secret settings off providerSettings and reads each from the Secret by its controller variable', () => {
    const values = mockCloudReleaseValues(release);
    expect(values.providerSettings).toEqual({
      region: 'us-east-1',
      endpoint: 'http://172.18.0.1:41234',
      interruptionQueue: 'nw-interruption',
    });
    expect(values.extraEnv).toEqual([
      {
        name: 'NODEWRIGHT_SETTING_ACCESS_KEY_ID',
        valueFrom: { secretKeyRef: { name: 'aws-mock-credentials', key: 'accessKeyId' } },
      },
      {
        name: 'NODEWRIGHT_SETTING_SECRET_ACCESS_KEY',
        valueFrom: { secretKeyRef: { name: 'aws-mock-credentials', key: 'secretAccessKey' } },
      },
    ]);
  });

  it('runs one replica of the loaded image, never pulled, under its own Lease and no workload identity', () => {
    const values = mockCloudReleaseValues(release);
    expect(values).toMatchObject({
      replicas: 1,
      image: { repository: 'nodewright', tag: 'src-0123abcd', pullPolicy: 'Never' },
      settings: { clusterName: 'nw-kind', leaderElectionId: 'nodewright-aws' },
      workloadIdentity: {
        aws: { roleArn: '' },
        azure: { clientId: '', tenantId: '' },
        gcp: { serviceAccount: '' },
      },
    });
  });

  it('adds extra values at the top level, beside the ones it sets', () => {
    const extraVolumes = [{ name: 'ca', configMap: { name: 'mock-ca' } }];
    const values = mockCloudReleaseValues({ ...release, extraValues: { extraVolumes } });
    expect(values.extraVolumes).toEqual(extraVolumes);
    expect(values.replicas).toBe(1);
  });

  it('splits a registry with a port at the tag, not at the port', () => {
    const values = mockCloudReleaseValues({ ...release, image: 'localhost:5000/nodewright:v1' });
    expect(values.image).toMatchObject({ repository: 'localhost:5000/nodewright', tag: 'v1' });
  });

  it('refuses an image without a tag, which the node could not find under Never', () => {
    expect(() => mockCloudReleaseValues({ ...release, image: 'nodewright' })).toThrow(/has no tag/);
  });
});

describe('credentialsSecret', () => {
  it('holds exactly the secret settings that are set', () => {
    expect(credentialsSecret(release, 'nodewright')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'aws-mock-credentials', namespace: 'nodewright' },
      type: 'Opaque',
      stringData: { accessKeyId: 'AKIAMOCK', secretAccessKey: 'mock-secret' },
    });
  });
});
