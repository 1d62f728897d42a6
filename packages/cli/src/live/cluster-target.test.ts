import { describe, expect, it } from 'vitest';
import { clusterTargetOf, kubeconfigSource, mayReadCluster } from './cluster-target.js';

const lookup = { kubeconfigEnv: undefined, homeConfigPath: '/home/me/.kube/config', homeConfigExists: true };

describe('kubeconfigSource', () => {
  it('takes --kubeconfig, then $KUBECONFIG (a list merged), then ~/.kube/config, as kubectl does', () => {
    expect(kubeconfigSource({ kubeconfig: '/k' }, { ...lookup, kubeconfigEnv: '/e' }, ':')).toEqual({
      kind: 'file',
      path: '/k',
    });
    expect(kubeconfigSource({}, { ...lookup, kubeconfigEnv: '/e' }, ':')).toEqual({
      kind: 'file',
      path: '/e',
    });
    expect(kubeconfigSource({}, { ...lookup, kubeconfigEnv: '/a:/b' }, ':')).toEqual({
      kind: 'env-list',
      value: '/a:/b',
    });
    expect(kubeconfigSource({ context: 'c' }, { ...lookup, kubeconfigEnv: '' }, ':')).toEqual({
      kind: 'file',
      path: '/home/me/.kube/config',
    });
  });

  it('says where it looked when there is no kubeconfig', () => {
    expect(() => kubeconfigSource({}, { ...lookup, homeConfigExists: false }, ':')).toThrow(
      'no cluster to read: no --kubeconfig given, $KUBECONFIG is unset and /home/me/.kube/config does not exist',
    );
  });
});

describe('clusterTargetOf and mayReadCluster', () => {
  it('names a target only when --kubeconfig or --context is given', () => {
    expect(clusterTargetOf({ filename: ['a'] })).toBeUndefined();
    expect(clusterTargetOf({ kubeconfig: '/k' })).toEqual({ kubeconfig: '/k' });
    expect(clusterTargetOf({ context: 'c' })).toEqual({ context: 'c' });
  });

  it('knows the command lines that read a cluster', () => {
    expect(mayReadCluster(['why', 'pod', 'a'])).toBe(true);
    expect(mayReadCluster(['schedule', '--kubeconfig=/k'])).toBe(true);
    expect(mayReadCluster(['disrupt', '--context', 'c'])).toBe(true);
    expect(mayReadCluster(['schedule', '-f', 'x', '--kubeconfigs'])).toBe(false);
    expect(mayReadCluster(['validate', '-f', 'x'])).toBe(false);
  });
});
