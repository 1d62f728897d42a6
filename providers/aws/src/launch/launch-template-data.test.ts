import { describe, expect, it } from 'vitest';
import { readyNodeClass } from '../provider/testing/fixtures.js';
import { type LaunchTemplateInput, launchTemplateSpec, volumeSizeGiB } from './launch-template-data.js';

const input = (patch: Partial<LaunchTemplateInput> = {}): LaunchTemplateInput => ({
  clusterName: 'prod',
  nodeClass: readyNodeClass(),
  family: 'AL2023',
  imageId: 'ami-1',
  securityGroupIds: ['sg-2', 'sg-1'],
  instanceProfile: 'nodes',
  bootstrap: {
    clusterName: 'prod',
    clusterEndpoint: 'https://api',
    caBundle: 'Q0E=',
    labels: {},
    taints: [],
  },
  tags: { 'kubernetes.io/cluster/prod': 'owned' },
  ...patch,
});

describe('launchTemplateSpec', () => {
  it('holds image, base64 user data, groups, profile, IMDS, root volume, monitoring and tags', () => {
    const { data, name } = launchTemplateSpec(input());
    expect(name).toMatch(/^nodewright\.k8s\.aws\/\d+$/);
    expect(data.ImageId).toBe('ami-1');
    expect(Buffer.from(data.UserData ?? '', 'base64').toString()).toContain('kind: NodeConfig');
    expect(data.SecurityGroupIds).toEqual(['sg-1', 'sg-2']);
    expect(data.IamInstanceProfile).toEqual({ Name: 'nodes' });
    expect(data.MetadataOptions).toEqual({
      HttpEndpoint: 'enabled',
      HttpProtocolIpv6: 'disabled',
      HttpPutResponseHopLimit: 1,
      HttpTokens: 'required',
    });
    expect(data.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/xvda',
        Ebs: { DeleteOnTermination: true, Encrypted: true, VolumeSize: 20, VolumeType: 'gp3' },
      },
    ]);
    expect(data.Monitoring).toEqual({ Enabled: false });
    expect(data.TagSpecifications?.map((t) => t.ResourceType)).toEqual([
      'instance',
      'volume',
      'network-interface',
    ]);
  });

  it('names equal data equally, and differently per cluster and per AMI', () => {
    const a = launchTemplateSpec(input()).name;
    expect(launchTemplateSpec(input({ securityGroupIds: ['sg-1', 'sg-2'] })).name).toBe(a);
    expect(launchTemplateSpec(input({ clusterName: 'staging' })).name).not.toBe(a);
    expect(launchTemplateSpec(input({ imageId: 'ami-2' })).name).not.toBe(a);
  });

  it('puts the groups on an explicit primary interface when associatePublicIPAddress is set', () => {
    const nc = readyNodeClass((n) => {
      n.spec.associatePublicIPAddress = false;
    });
    const { data } = launchTemplateSpec(input({ nodeClass: nc }));
    expect(data.SecurityGroupIds).toBeUndefined();
    expect(data.NetworkInterfaces).toEqual([
      { DeviceIndex: 0, AssociatePublicIpAddress: false, Groups: ['sg-1', 'sg-2'] },
    ]);
  });

  it('converts volume sizes to GiB, rounding up', () => {
    expect([volumeSizeGiB('20Gi'), volumeSizeGiB('100G'), volumeSizeGiB('1Ti'), volumeSizeGiB('1T')]).toEqual(
      [20, 94, 1024, 932],
    );
  });
});
