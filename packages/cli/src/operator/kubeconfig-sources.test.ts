import { describe, expect, it } from 'vitest';
import {
  type KubeConfigSources,
  missingKubeConfigReason,
  ServiceAccountTokenPath,
} from './kubeconfig-sources.js';

const none: KubeConfigSources = {
  kubeconfigEnv: undefined,
  homeConfigPath: '/home/me/.kube/config',
  homeConfigExists: false,
  serviceHostSet: false,
  serviceAccountTokenExists: false,
};

describe('missingKubeConfigReason', () => {
  it('names every source it looked at when none exists', () => {
    const reason = missingKubeConfigReason(none);
    expect(reason).toContain('no --kubeconfig given');
    expect(reason).toContain('$KUBECONFIG is unset');
    expect(reason).toContain('/home/me/.kube/config does not exist');
    expect(reason).toContain('KUBERNETES_SERVICE_HOST is unset');
    expect(missingKubeConfigReason({ ...none, kubeconfigEnv: '' })).toBe(reason);
  });

  it('says the token is missing when the service host is set without it', () => {
    expect(missingKubeConfigReason({ ...none, serviceHostSet: true })).toContain(
      `${ServiceAccountTokenPath} is missing`,
    );
  });

  it('accepts any one source', () => {
    expect(missingKubeConfigReason({ ...none, kubeconfigEnv: '/tmp/k' })).toBeUndefined();
    expect(missingKubeConfigReason({ ...none, homeConfigExists: true })).toBeUndefined();
    expect(
      missingKubeConfigReason({ ...none, serviceHostSet: true, serviceAccountTokenExists: true }),
    ).toBeUndefined();
  });
});
