import { describe, expect, it } from 'vitest';
import { e2eClusterTarget } from './cluster-choice.js';

describe('e2eClusterTarget', () => {
  it('starts a binary cluster by default and when NODEWRIGHT_CLUSTER=binary', () => {
    expect(e2eClusterTarget(undefined, {}).kind).toBe('binary');
    expect(e2eClusterTarget(undefined, { NODEWRIGHT_CLUSTER: 'binary' }).kind).toBe('binary');
  });

  it('starts kind when NODEWRIGHT_CLUSTER names it, as the globalSetup does', () => {
    expect(e2eClusterTarget(undefined, { NODEWRIGHT_CLUSTER: 'kind' })).toMatchObject({ kind: 'kind' });
  });

  it('uses the supplied cluster over NODEWRIGHT_CLUSTER, saying so', () => {
    const target = e2eClusterTarget('/home/me/kubeconfig', { NODEWRIGHT_CLUSTER: 'kind' });
    expect(target).toMatchObject({ kind: 'external', kubeconfigPath: '/home/me/kubeconfig' });
    expect(target.reason).toContain('NODEWRIGHT_CLUSTER=kind is ignored');
  });

  it("ignores the worker's NODEWRIGHT_KUBECONFIG (the globalSetup's shared cluster)", () => {
    const env = { NODEWRIGHT_KUBECONFIG: '/tmp/nodewright-cluster-x/kubeconfig', NODEWRIGHT_CLUSTER: 'kind' };
    expect(e2eClusterTarget(undefined, env).kind).toBe('kind');
    expect(e2eClusterTarget(undefined, { NODEWRIGHT_KUBECONFIG: '/tmp/shared' }).kind).toBe('binary');
  });

  it('refuses an unknown NODEWRIGHT_CLUSTER, even with a supplied cluster', () => {
    expect(() => e2eClusterTarget(undefined, { NODEWRIGHT_CLUSTER: 'k3d' })).toThrow(
      /NODEWRIGHT_CLUSTER="k3d"/,
    );
    expect(() => e2eClusterTarget('/k', { NODEWRIGHT_CLUSTER: 'k3d' })).toThrow(
      /allowed values: binary, kind \(default binary\)/,
    );
  });
});
