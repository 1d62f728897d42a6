import { describe, expect, it } from 'vitest';
import { type BootstrapOptions, renderUserData } from './user-data.js';

const base: BootstrapOptions = {
  clusterName: 'prod',
  clusterEndpoint: 'https://ABC.gr7.us-west-2.eks.amazonaws.com',
  caBundle: 'Q0E=',
  labels: { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'spot', team: 'web' },
  taints: [
    { key: 'dedicated', value: 'web', effect: 'NoSchedule' },
    { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
  ],
  maxPods: 29,
};

describe('renderUserData', () => {
  it('AL2023: a MIME multi-part with a nodeadm NodeConfig carrying cluster, labels, taints and maxPods', () => {
    const out = renderUserData('AL2023', { ...base, kubelet: { clusterDNS: ['10.100.0.10'], maxPods: 50 } });
    expect(out).toContain('Content-Type: multipart/mixed; boundary="//"');
    expect(out).toContain('Content-Type: application/node.eks.aws');
    expect(out).toContain('kind: NodeConfig');
    expect(out).toContain('    name: "prod"');
    expect(out).toContain('    apiServerEndpoint: "https://ABC.gr7.us-west-2.eks.amazonaws.com"');
    expect(out).toContain('    certificateAuthority: "Q0E="');
    // The NodeClass's kubelet.maxPods wins over the instance type's.
    expect(out).toContain('      maxPods: 50');
    expect(out).toContain('        - "10.100.0.10"');
    expect(out).toContain(
      '"--node-labels=karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=default,team=web"',
    );
    expect(out).toContain(
      '"--register-with-taints=dedicated=web:NoSchedule,karpenter.sh/unregistered:NoExecute"',
    );
    expect(out.trimEnd().endsWith('--//--')).toBe(true);
  });

  it('AL2023: the NodeClass userData part comes first', () => {
    const custom =
      'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      shutdownGracePeriod: 30s';
    const out = renderUserData('AL2023', { ...base, customUserData: custom });
    expect(out.indexOf('shutdownGracePeriod')).toBeGreaterThan(0);
    expect(out.indexOf('shutdownGracePeriod')).toBeLessThan(out.indexOf('apiServerEndpoint'));
  });

  it('Bottlerocket: TOML settings with labels and taints tables', () => {
    const out = renderUserData('Bottlerocket', base);
    expect(out).toContain(
      '[settings.kubernetes]\napi-server = "https://ABC.gr7.us-west-2.eks.amazonaws.com"',
    );
    expect(out).toContain('cluster-name = "prod"');
    expect(out).toContain('max-pods = 29');
    expect(out).toContain('[settings.kubernetes.node-labels]\n"karpenter.sh/capacity-type" = "spot"');
    expect(out).toContain('"dedicated" = ["web:NoSchedule"]');
    expect(out).toContain('"karpenter.sh/unregistered" = [":NoExecute"]');
  });

  it('AL2: bootstrap.sh with the kubelet flags and --use-max-pods false', () => {
    const out = renderUserData('AL2', base);
    expect(out).toContain("/etc/eks/bootstrap.sh 'prod'");
    expect(out).toContain("--apiserver-endpoint 'https://ABC.gr7.us-west-2.eks.amazonaws.com'");
    expect(out).toContain('--use-max-pods false');
    expect(out).toContain(
      "--kubelet-extra-args '--node-labels=karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=default,team=web --register-with-taints=dedicated=web:NoSchedule,karpenter.sh/unregistered:NoExecute --max-pods=29'",
    );
  });

  it('Windows: the EKS bootstrap script in a PowerShell block', () => {
    const out = renderUserData('Windows2022', base);
    expect(out.startsWith('<powershell>')).toBe(true);
    expect(out).toContain("-EKSClusterName 'prod'");
    expect(out).toContain('--max-pods=29');
  });

  it('Custom: the NodeClass userData unchanged', () => {
    expect(renderUserData('Custom', { ...base, customUserData: '#!/bin/sh\necho hi' })).toBe(
      '#!/bin/sh\necho hi',
    );
  });

  it('refuses to render without the cluster endpoint, naming the setting', () => {
    expect(() => renderUserData('AL2023', { ...base, clusterEndpoint: undefined })).toThrow(
      /clusterEndpoint/,
    );
  });
});
