import { describe, expect, it } from 'vitest';
import { suiteReleaseValues } from './in-cluster-launcher.js';

const release = {
  image: 'nodewright:abc123',
  settings: { region: 'us-east-1', 'access-key-id': 'AKIA' },
  secretSettings: ['access-key-id'],
  secretName: 'aws-credentials',
  clusterName: 'nw-suite-1',
  leaderElectionId: 'nodewright-e2e-aws',
};

describe('suiteReleaseValues', () => {
  it('leaves the Deployment no replicas of its own: the launcher makes each replica a Pod', () => {
    expect(suiteReleaseValues(release).replicas).toBe(0);
  });

  it('tolerates the kind node taint beside the chart default, and drops pod anti-affinity', () => {
    const values = suiteReleaseValues(release);
    expect(values.tolerations).toEqual([
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(values.affinity).toEqual({ podAntiAffinity: null });
  });

  it('keeps the mock release values: the Lease, the image and secrets from the Secret', () => {
    const values = suiteReleaseValues(release);
    expect(values.settings).toEqual({ clusterName: 'nw-suite-1', leaderElectionId: 'nodewright-e2e-aws' });
    expect(values.image).toEqual({ repository: 'nodewright', tag: 'abc123', pullPolicy: 'Never' });
    expect(values.providerSettings).toEqual({ region: 'us-east-1' });
    expect(JSON.stringify(values.extraEnv)).toContain('aws-credentials');
  });
});
