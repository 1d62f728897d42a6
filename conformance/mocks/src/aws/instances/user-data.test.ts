import { describe, expect, it } from 'vitest';
import { kubeletRequests } from './user-data.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('kubeletRequests', () => {
  it('reads AL2023 NodeConfig kubelet flags', () => {
    const mime = `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="//"

--//
Content-Type: application/node.eks.aws

apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  kubelet:
    flags:
    - --node-labels="karpenter.sh/nodepool=default,team=a"
    - --register-with-taints="gpu=true:NoSchedule,karpenter.sh/unregistered:NoExecute"
--//--`;
    expect(kubeletRequests(b64(mime))).toEqual({
      labels: { 'karpenter.sh/nodepool': 'default', team: 'a' },
      taints: [
        { key: 'gpu', value: 'true', effect: 'NoSchedule' },
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      ],
    });
  });

  it('reads Bottlerocket TOML settings', () => {
    const toml = `[settings.kubernetes]
cluster-name = "c1"

[settings.kubernetes.node-labels]
"karpenter.sh/nodepool" = "default"

[settings.kubernetes.node-taints]
"dedicated" = ["infra:NoSchedule"]
`;
    expect(kubeletRequests(b64(toml))).toEqual({
      labels: { 'karpenter.sh/nodepool': 'default' },
      taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
    });
  });

  it('yields nothing for absent or unrelated user data', () => {
    expect(kubeletRequests(undefined)).toEqual({ labels: {}, taints: [] });
    expect(kubeletRequests(b64('#!/bin/bash\necho hi'))).toEqual({ labels: {}, taints: [] });
  });
});
