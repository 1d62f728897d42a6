import {
  type _InstanceType,
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { MockInstance } from '@nodewright/conformance/harness';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from '../aws-mock.js';

let mock: AwsMock;
let timers: ManualTimers;
let ec2: EC2Client;

beforeEach(async () => {
  const clock = new FakeClock(Date.parse('2026-12-01T12:00:00Z'));
  timers = new ManualTimers(clock);
  mock = await startAwsMock({ cluster: 'c1', clock, timers, timings: { startMs: 2000, terminateMs: 3000 } });
  ec2 = new EC2Client({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  ec2.destroy();
  await mock.close();
});

async function launch(
  instanceType: _InstanceType,
  imageName: string,
  capacityType: 'spot' | 'on-demand',
): Promise<string> {
  const image = mock.seed.images.find((i) => i.name === imageName)!;
  const userData = `[settings.kubernetes.node-labels]\n"karpenter.sh/capacity-type" = "${capacityType}"\n`;
  const lt = await ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: `lt-${instanceType}`,
      LaunchTemplateData: {
        ImageId: image.id,
        UserData: Buffer.from(userData).toString('base64'),
        BlockDeviceMappings: [{ DeviceName: '/dev/xvda', Ebs: { VolumeSize: 50 } }],
      },
    }),
  );
  const subnet = mock.seed.subnets.find((s) => s.zone === 'us-east-1b')!;
  const fleet = await ec2.send(
    new CreateFleetCommand({
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: capacityType },
      LaunchTemplateConfigs: [
        {
          LaunchTemplateSpecification: {
            LaunchTemplateId: lt.LaunchTemplate!.LaunchTemplateId,
            Version: '$Latest',
          },
          Overrides: [{ InstanceType: instanceType, SubnetId: subnet.id }],
        },
      ],
      TagSpecifications: [
        { ResourceType: 'instance', Tags: [{ Key: 'karpenter.sh/nodepool', Value: 'general' }] },
      ],
    }),
  );
  return fleet.Instances![0]!.InstanceIds![0]!;
}

describe('Ec2MockInstanceSource', () => {
  it('emits each instance as kubelet would see it, and every state change in order', async () => {
    const seen: MockInstance[] = [];
    const stop = mock.instances.watch((i) => seen.push(i));
    const id = await launch('m6g.xlarge', 'bottlerocket-aws-k8s-1.34-aarch64-v1.50.0-4c5e6a1b', 'spot');
    expect(seen).toHaveLength(1);
    const [first] = seen;
    expect(first).toMatchObject({
      providerID: `aws:///us-east-1b/${id}`,
      instanceType: 'm6g.xlarge',
      zone: 'us-east-1b',
      capacityType: 'spot',
      architecture: 'arm64',
      state: 'pending',
      labels: { 'karpenter.sh/nodepool': 'general', 'karpenter.sh/capacity-type': 'spot' },
      capacity: { cpu: '4', pods: '58', 'ephemeral-storage': `${50 * 1024 * 1024}Ki` },
    });
    expect(first?.nodeName).toBe(mock.ec2.instances.get(id)?.privateDnsName);
    expect(first?.allocatable?.cpu).toBe('3920m');

    await timers.advance(2000);
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    await timers.advance(3000);
    expect(seen.map((i) => i.state)).toEqual(['pending', 'running', 'stopping', 'terminated']);

    stop();
    await launch('c5.large', 'amazon-eks-node-al2023-x86_64-standard-1.34-v20261101', 'on-demand');
    expect(seen).toHaveLength(4);
  });

  it('replays current instances to a new watcher', async () => {
    const id = await launch('t3.large', 'amazon-eks-node-al2023-x86_64-standard-1.34-v20261101', 'on-demand');
    const seen: MockInstance[] = [];
    mock.instances.watch((i) => seen.push(i));
    expect(seen.map((i) => [i.providerID, i.capacityType, i.state])).toEqual([
      [`aws:///us-east-1b/${id}`, 'on-demand', 'pending'],
    ]);
    expect(seen[0]?.capacity.pods).toBe('35');
  });
});
