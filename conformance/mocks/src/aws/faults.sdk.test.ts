import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DescribeInstancesCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

let mock: AwsMock;
let timers: ManualTimers;
let ec2: EC2Client;
let sqs: SQSClient;

beforeEach(async () => {
  const clock = new FakeClock(Date.parse('2026-12-01T12:00:00Z'));
  timers = new ManualTimers(clock);
  mock = await startAwsMock({ cluster: 'c1', clock, timers, stateChangeEvents: true });
  ec2 = new EC2Client({ ...mock.clientConfig, maxAttempts: 1 });
  sqs = new SQSClient({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  ec2.destroy();
  sqs.destroy();
  await mock.close();
});

/** The spot fleet's launch template, created on first use. */
async function spotLaunchTemplateId(): Promise<string> {
  const existing = mock.ec2.findLaunchTemplate({ name: 'spot-lt' });
  if (existing) return existing.id;
  const image = mock.seed.images.find((i) => i.name.startsWith('amazon-eks-node-al2023-x86_64-standard'))!;
  const lt = await ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: 'spot-lt',
      LaunchTemplateData: { ImageId: image.id },
    }),
  );
  return lt.LaunchTemplate!.LaunchTemplateId!;
}

async function spotFleet(count: number, options: { clientToken?: string; client?: EC2Client } = {}) {
  const ltId = await spotLaunchTemplateId();
  const [a, b] = mock.seed.subnets;
  return (options.client ?? ec2).send(
    new CreateFleetCommand({
      ...(options.clientToken === undefined ? {} : { ClientToken: options.clientToken }),
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: count, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
      LaunchTemplateConfigs: [
        {
          LaunchTemplateSpecification: {
            LaunchTemplateId: ltId,
            Version: '$Latest',
          },
          Overrides: [
            { InstanceType: 'm5.large', SubnetId: a!.id },
            { InstanceType: 'm5.large', SubnetId: b!.id },
          ],
        },
      ],
    }),
  );
}

describe('AWS mock faults with the real SDK', () => {
  it('replays a CreateFleet repeated with its ClientToken: the same fleet and instance, nothing launched again', async () => {
    const first = await spotFleet(1, { clientToken: 'claim-uid-1' });
    const again = await spotFleet(1, { clientToken: 'claim-uid-1' });
    expect(again.FleetId).toBe(first.FleetId);
    expect(again.Instances?.[0]?.InstanceIds).toEqual(first.Instances?.[0]?.InstanceIds);
    expect(mock.ec2.instances.size).toBe(1);
    const other = await spotFleet(1, { clientToken: 'claim-uid-2' });
    expect(other.FleetId).not.toBe(first.FleetId);
    expect(mock.ec2.instances.size).toBe(2);
  });

  it('refuses a ClientToken repeated with other parameters: IdempotentParameterMismatch', async () => {
    await spotFleet(1, { clientToken: 'claim-uid-1' });
    await expect(spotFleet(2, { clientToken: 'claim-uid-1' })).rejects.toMatchObject({
      name: 'IdempotentParameterMismatch',
    });
    expect(mock.ec2.instances.size).toBe(1);
  });

  it("a lost CreateFleet response: a new call launches again, unless it repeats the first call's ClientToken", async () => {
    // The SDK fills in a fresh ClientToken per call (its own retries reuse it): a caller that
    // calls again after a lost answer launches a second instance unless it passes its own.
    mock.faults.loseResponses('CreateFleet', 1);
    await expect(spotFleet(1)).rejects.toThrow();
    expect(mock.ec2.instances.size, 'the launch whose answer was lost').toBe(1);
    await spotFleet(1);
    expect(mock.ec2.instances.size, 'a second launch for the same need').toBe(2);

    mock.faults.loseResponses('CreateFleet', 1);
    await expect(spotFleet(1, { clientToken: 'claim-uid-3' })).rejects.toThrow();
    expect(mock.ec2.instances.size).toBe(3);
    const again = await spotFleet(1, { clientToken: 'claim-uid-3' });
    expect(mock.ec2.instances.size, 'the repeat launched nothing').toBe(3);
    const id = again.Instances![0]!.InstanceIds![0]!;
    expect([...mock.ec2.instances.keys()].at(-1)).toBe(id);
  });

  it('lags DescribeInstances: a new instance is hidden, by filter and by id, until the lag passes', async () => {
    mock.faults.describeLag(30_000);
    const fleet = await spotFleet(1);
    const id = fleet.Instances![0]!.InstanceIds![0]!;
    const all = await ec2.send(new DescribeInstancesCommand({}));
    expect(all.Reservations ?? []).toEqual([]);
    await expect(ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
    });
    await timers.advance(30_000);
    const later = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(later.Reservations?.[0]?.Instances?.[0]?.InstanceId).toBe(id);
  });

  it('holds a call for its injected latency on the mock timers', async () => {
    mock.faults.latency('DescribeSubnets', 30_000);
    let answered = false;
    const call = ec2.send(new DescribeSubnetsCommand({})).then((out) => {
      answered = true;
      return out;
    });
    while (mock.faults.calls('DescribeSubnets') === 0 && timers.pending() === 0) {
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    await timers.advance(30_000);
    expect((await call).Subnets).toHaveLength(4);
    expect(answered).toBe(true);
  });

  it('fulfils a fleet partially when a pool has little capacity left', async () => {
    const [a, b] = mock.seed.subnets;
    const cheaper = [a!, b!].sort(
      (x, y) =>
        mock.ec2.currentSpotPrice('m5.large', x.zone)! - mock.ec2.currentSpotPrice('m5.large', y.zone)!,
    );
    mock.faults.insufficientCapacity(
      { capacityType: 'spot', instanceType: 'm5.large', zone: cheaper[0]!.zone },
      1,
    );
    mock.faults.insufficientCapacity(
      { capacityType: 'spot', instanceType: 'm5.large', zone: cheaper[1]!.zone },
      1,
    );
    const fleet = await spotFleet(3);
    expect(
      fleet.Instances?.map((i) => [
        i.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone,
        i.InstanceIds?.length,
      ]),
    ).toEqual([
      [cheaper[0]!.zone, 1],
      [cheaper[1]!.zone, 1],
    ]);
    expect(
      fleet.Errors?.map((e) => [e.ErrorCode, e.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone]),
    ).toEqual(
      expect.arrayContaining([
        ['InsufficientInstanceCapacity', cheaper[0]!.zone],
        ['InsufficientInstanceCapacity', cheaper[1]!.zone],
      ]),
    );
  });

  it('reclaims a spot instance: warning on the queue, then shutting-down and terminated events', async () => {
    const fleet = await spotFleet(1);
    const id = fleet.Instances![0]!.InstanceIds![0]!;
    await timers.advance(500);
    mock.reclaimSpot(id);
    const QueueUrl = mock.interruptionQueue.url;
    const first = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(first.Messages?.map((m) => JSON.parse(m.Body!)['detail-type'])).toEqual([
      'EC2 Spot Instance Interruption Warning',
    ]);
    // Handled messages are deleted; one left alone would come back after its visibility timeout.
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: first.Messages![0]!.ReceiptHandle }));
    await timers.advance(120_000 + 1000);
    const later = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(later.Messages?.map((m) => JSON.parse(m.Body!).detail)).toEqual([
      { 'instance-id': id, state: 'shutting-down' },
      { 'instance-id': id, state: 'terminated' },
    ]);
    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(described.Reservations?.[0]?.Instances?.[0]?.State?.Name).toBe('terminated');
  });
});
