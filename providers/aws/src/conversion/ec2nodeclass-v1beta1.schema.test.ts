import {
  convertManifests,
  fieldErrors,
  nodePoolSchema,
  nodePoolV1beta1Converter,
} from '@nodewright/core/apis';
import { describe, expect, it } from 'vitest';
import { ec2NodeClassSchema } from '../apis/ec2nodeclass.js';
import { ec2NodeClassV1beta1Converter } from './ec2nodeclass-v1beta1.js';

type Json = Record<string, unknown>;

const nodeClass = (spec: Json): Json => ({
  apiVersion: 'karpenter.k8s.aws/v1beta1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: {
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }, { id: 'subnet-09fa4a0a8f233a921' }],
    securityGroupSelectorTerms: [
      { tags: { 'karpenter.sh/discovery': 'demo' } },
      { name: 'my-security-group' },
    ],
    role: 'KarpenterNodeRole-demo',
    tags: { team: 'team-a', 'eks:eks-cluster-name': 'demo' },
    blockDeviceMappings: [
      { deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi', volumeType: 'gp3', encrypted: true } },
    ],
    ...spec,
  },
});

const nodePool: Json = {
  apiVersion: 'karpenter.sh/v1beta1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      metadata: { labels: { 'billing-team': 'my-team' } },
      spec: {
        nodeClassRef: { name: 'default' },
        requirements: [
          {
            key: 'karpenter.k8s.aws/instance-category',
            operator: 'In',
            values: ['c', 'm', 'r'],
            minValues: 2,
          },
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
        ],
        kubelet: {
          clusterDNS: ['10.0.1.100'],
          systemReserved: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi' },
          evictionHard: { 'memory.available': '5%' },
          evictionSoft: { 'memory.available': '500Mi' },
          evictionSoftGracePeriod: { 'memory.available': '1m' },
          imageGCHighThresholdPercent: 85,
          imageGCLowThresholdPercent: 80,
          maxPods: 20,
        },
      },
    },
    disruption: {
      consolidationPolicy: 'WhenUnderutilized',
      expireAfter: '720h',
      budgets: [{ nodes: '10%' }],
    },
    limits: { cpu: '1000' },
    weight: 10,
  },
};

const errorsOf = (schema: typeof ec2NodeClassSchema | typeof nodePoolSchema, value: unknown) =>
  fieldErrors(schema.safeParse(value).error?.issues ?? []).map((e) => `${e.path}: ${e.message}`);

describe('converted output passes the v1 schemas', () => {
  it.each([
    ['AL2 without terms (alias)', { amiFamily: 'AL2' }],
    ['AL2023 without terms (alias)', { amiFamily: 'AL2023' }],
    [
      'Bottlerocket with terms',
      { amiFamily: 'Bottlerocket', amiSelectorTerms: [{ name: 'my-ami', owner: 'self' }] },
    ],
    ['Windows2022 without terms (alias)', { amiFamily: 'Windows2022' }],
    [
      'Ubuntu with terms',
      { amiFamily: 'Ubuntu', amiSelectorTerms: [{ id: 'ami-foo' }], blockDeviceMappings: undefined },
    ],
    ['Ubuntu without terms (placeholder)', { amiFamily: 'Ubuntu' }],
    [
      'Custom with terms',
      { amiFamily: 'Custom', amiSelectorTerms: [{ id: 'ami-123' }], userData: 'echo hi' },
    ],
    ['selector maps', { amiFamily: 'AL2', subnetSelector: { a: 'b,c' }, subnetSelectorTerms: undefined }],
  ])('%s, with the NodePool kubelet moved in', (_name, spec) => {
    const cleaned = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined));
    const input = nodeClass(cleaned);
    for (const [key, value] of Object.entries(spec))
      if (value === undefined) delete (input.spec as Json)[key];
    const result = convertManifests(
      [nodePool, input],
      [nodePoolV1beta1Converter, ec2NodeClassV1beta1Converter],
    );
    expect(errorsOf(nodePoolSchema, result.objects[0])).toEqual([]);
    expect(errorsOf(ec2NodeClassSchema, result.objects[1])).toEqual([]);
    expect((result.objects[1] as { spec: Json }).spec.kubelet).toBeDefined();
  });
});
