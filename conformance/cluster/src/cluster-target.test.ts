import { describe, expect, it } from 'vitest';
import { selectClusterTarget } from './cluster-target.js';

describe('selectClusterTarget', () => {
  it('starts the binary cluster when nothing is set, or NODEWRIGHT_CLUSTER is empty', () => {
    expect(selectClusterTarget({}).kind).toBe('binary');
    expect(selectClusterTarget({ NODEWRIGHT_CLUSTER: '' }).kind).toBe('binary');
    expect(selectClusterTarget({ NODEWRIGHT_CLUSTER: '  ' }).kind).toBe('binary');
    expect(selectClusterTarget({}).reason).toContain('default');
  });

  it('takes the target NODEWRIGHT_CLUSTER names', () => {
    expect(selectClusterTarget({ NODEWRIGHT_CLUSTER: 'binary' }).kind).toBe('binary');
    expect(selectClusterTarget({ NODEWRIGHT_CLUSTER: 'kind' })).toEqual({
      kind: 'kind',
      reason: expect.stringContaining('locally built node image'),
    });
  });

  it('uses NODEWRIGHT_KUBECONFIG over any NODEWRIGHT_CLUSTER, saying which request it ignored', () => {
    expect(selectClusterTarget({ NODEWRIGHT_KUBECONFIG: '/k' })).toEqual({
      kind: 'external',
      kubeconfigPath: '/k',
      reason: expect.stringContaining('NODEWRIGHT_KUBECONFIG is set'),
    });
    const overridden = selectClusterTarget({ NODEWRIGHT_KUBECONFIG: '/k', NODEWRIGHT_CLUSTER: 'kind' });
    expect(overridden.kind).toBe('external');
    expect(overridden.reason).toContain('NODEWRIGHT_CLUSTER=kind is ignored');
  });

  it('treats an empty NODEWRIGHT_KUBECONFIG as unset', () => {
    expect(selectClusterTarget({ NODEWRIGHT_KUBECONFIG: '', NODEWRIGHT_CLUSTER: 'kind' }).kind).toBe('kind');
  });

  it('rejects an unknown target, naming the variable and the allowed values', () => {
    for (const value of ['KIND', 'Binary', 'k3d', 'binary,kind']) {
      expect(() => selectClusterTarget({ NODEWRIGHT_CLUSTER: value })).toThrow(
        `NODEWRIGHT_CLUSTER=${JSON.stringify(value)} is not a cluster target; allowed values: binary, kind (default binary)`,
      );
    }
    // Also when a kubeconfig would win: the typo is reported, not hidden.
    expect(() => selectClusterTarget({ NODEWRIGHT_CLUSTER: 'k3d', NODEWRIGHT_KUBECONFIG: '/k' })).toThrow(
      /NODEWRIGHT_CLUSTER="k3d" is not a cluster target.*NODEWRIGHT_KUBECONFIG/,
    );
  });
});
