import type {
  DescribeInstanceTypeOfferingsCommandOutput,
  DescribeInstanceTypesCommandOutput,
  InstanceTypeInfo,
  InstanceTypeOffering,
} from '@aws-sdk/client-ec2';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { describe, expect, it } from 'vitest';
import type { EC2NodeClass } from '../apis/index.js';
import { fakeEc2, paged } from './fake-ec2.js';
import { G4dnXlarge, M5Large, M6gLarge } from './fixtures.js';
import type { ProviderLogger } from './logger.js';
import { InstanceTypeProvider, InstanceTypesRefreshMs } from './provider.js';

const meta = { $metadata: {} };
const offerings = [
  ['m5.large', 'us-east-1a'],
  ['m5.large', 'us-east-1b'],
  ['m5.large', 'us-east-1c'],
  ['m6g.large', 'us-east-1a'],
  ['g4dn.xlarge', 'us-east-1c'],
].map(([InstanceType, Location]) => ({
  InstanceType,
  Location,
  LocationType: 'availability-zone',
})) as InstanceTypeOffering[];

function recordingLogger() {
  const lines: Array<{ level: string; message: string; fields: object }> = [];
  const log =
    (level: string) =>
    (fields: object, message: string): void => {
      lines.push({ level, message, fields });
    };
  const logger: ProviderLogger = { info: log('info'), warn: log('warn'), error: log('error') };
  return { logger, lines };
}

function nodeClass(subnets: Array<{ id: string; zone: string; zoneID?: string }>): EC2NodeClass {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      subnetSelectorTerms: [{ tags: { a: 'b' } }],
      securityGroupSelectorTerms: [{ tags: { a: 'b' } }],
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      role: 'KarpenterNodeRole',
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpProtocolIPv6: 'disabled',
        httpPutResponseHopLimit: 1,
        httpTokens: 'required',
      },
    },
    status: { subnets },
  } as EC2NodeClass;
}

function setup(types: InstanceTypeInfo[] = [M5Large, M6gLarge, G4dnXlarge]) {
  const clock = new FakeClock(1_000_000);
  const timers = new ManualTimers(clock);
  let failing = false;
  const ec2 = fakeEc2({
    describeInstanceTypes: async (input) => {
      if (failing) throw new Error('RequestLimitExceeded');
      return paged(
        types,
        2,
        (InstanceTypes, NextToken): DescribeInstanceTypesCommandOutput => ({
          ...meta,
          InstanceTypes,
          NextToken,
        }),
      )(input);
    },
    describeInstanceTypeOfferings: paged(
      offerings,
      3,
      (InstanceTypeOfferings, NextToken): DescribeInstanceTypeOfferingsCommandOutput => ({
        ...meta,
        InstanceTypeOfferings,
        NextToken,
      }),
    ),
  });
  const { logger, lines } = recordingLogger();
  const unavailableOfferings = new UnavailableOfferingsCache(clock);
  let od = 0.096;
  let priceGeneration = 0;
  const prices = {
    onDemand: (t: string) => (t === 'm5.large' ? od : 0.1),
    spot: () => 0.03,
    generation: () => priceGeneration,
  };
  const provider = new InstanceTypeProvider({ ec2, prices, clock, timers, logger, unavailableOfferings });
  return {
    clock,
    timers,
    ec2,
    lines,
    provider,
    unavailableOfferings,
    fail: (f: boolean) => {
      failing = f;
    },
    setOnDemand: (p: number) => {
      od = p;
      priceGeneration++;
    },
  };
}

describe('InstanceTypeProvider', () => {
  it('reads every page of both APIs with the upstream filters', async () => {
    const { provider, ec2 } = setup();
    await provider.refresh();
    const typeCalls = ec2.calls.filter((c) => c.method === 'describeInstanceTypes');
    const offeringCalls = ec2.calls.filter((c) => c.method === 'describeInstanceTypeOfferings');
    expect(typeCalls.map((c) => (c.input as { NextToken?: string }).NextToken)).toEqual([undefined, '2']);
    expect(offeringCalls.map((c) => (c.input as { NextToken?: string }).NextToken)).toEqual([undefined, '3']);
    expect(typeCalls[0]?.input).toEqual({
      Filters: [
        { Name: 'supported-virtualization-type', Values: ['hvm'] },
        { Name: 'processor-info.supported-architecture', Values: ['x86_64', 'arm64'] },
      ],
    });
    expect(offeringCalls[0]?.input).toEqual({ LocationType: 'availability-zone' });
  });

  it('zones are the offering zones within the subnet zones; types offered in none are left out', async () => {
    const { provider } = setup();
    const types = await provider.forNodeClass(
      nodeClass([
        { id: 'subnet-1', zone: 'us-east-1a', zoneID: 'use1-az1' },
        { id: 'subnet-2', zone: 'us-east-1b', zoneID: 'use1-az2' },
      ]),
    );
    expect(
      types.map((t) => [t.name, [...(t.requirements.get('topology.kubernetes.io/zone')?.values ?? [])]]),
    ).toEqual([
      ['m5.large', ['us-east-1a', 'us-east-1b']],
      ['m6g.large', ['us-east-1a']],
    ]);
  });

  it('memoises per NodeClass until prices or unavailable offerings change', async () => {
    const { provider, unavailableOfferings, setOnDemand } = setup();
    const nc = nodeClass([{ id: 'subnet-1', zone: 'us-east-1a' }]);
    const first = await provider.forNodeClass(nc);
    expect(await provider.forNodeClass(nc)).toBe(first);
    unavailableOfferings.markUnavailable(
      { capacityType: 'spot', instanceType: 'm5.large', zone: 'us-east-1a' },
      'ICE',
    );
    const second = await provider.forNodeClass(nc);
    expect(second).not.toBe(first);
    // Only offerings are rebuilt for an availability change; requirements and capacity are kept.
    expect(second[0]?.requirements).toBe(first[0]?.requirements);
    expect(
      second.find((t) => t.name === 'm5.large')?.offerings.find((o) => o.capacityType === 'spot')?.available,
    ).toBe(false);
    setOnDemand(0.2);
    const reshaped = await provider.forNodeClass({ ...nc, spec: { ...nc.spec, kubelet: { maxPods: 20 } } });
    expect(reshaped[0]?.requirements).not.toBe(first[0]?.requirements);
    expect(
      reshaped
        .find((t) => t.name === 'm5.large')
        ?.capacity.get('pods')
        ?.toString(),
    ).toBe('20');
    const third = await provider.forNodeClass(nc);
    expect(
      third.find((t) => t.name === 'm5.large')?.offerings.find((o) => o.capacityType === 'on-demand')?.price,
    ).toBe(0.2);
  });

  it('refreshes every 12 h on the timers and keeps the previous facts when a refresh fails', async () => {
    const { provider, timers, ec2, lines, fail } = setup();
    provider.start();
    await timers.advance(0, () => provider.idle());
    const callsAfterStart = ec2.calls.length;
    expect(callsAfterStart).toBe(4);
    await timers.advance(InstanceTypesRefreshMs - 1, () => provider.idle());
    expect(ec2.calls.length).toBe(callsAfterStart);
    fail(true);
    await timers.advance(1, () => provider.idle());
    // The failing first page of DescribeInstanceTypes, and both pages of the offerings.
    expect(ec2.calls.length).toBe(callsAfterStart + 3);
    expect(lines.some((l) => l.level === 'error' && l.message.includes('keeping the previous ones'))).toBe(
      true,
    );
    const types = await provider.forNodeClass(nodeClass([{ id: 'subnet-1', zone: 'us-east-1c' }]));
    expect(types.map((t) => t.name)).toEqual(['g4dn.xlarge', 'm5.large']);
    provider.stop();
    expect(timers.pending()).toBe(0);
  });

  it('fails forNodeClass with the reason when instance types were never loaded', async () => {
    const { provider, fail } = setup();
    fail(true);
    await expect(provider.forNodeClass(nodeClass([{ id: 's', zone: 'us-east-1a' }]))).rejects.toThrow(
      'EC2 instance types are not known yet',
    );
  });

  it('a repeated NextToken stops paging with an error naming the call', async () => {
    const clock = new FakeClock(0);
    const { logger, lines } = recordingLogger();
    const ec2 = fakeEc2({
      describeInstanceTypes: async () => ({ ...meta, InstanceTypes: [M5Large], NextToken: 'same' }),
      describeInstanceTypeOfferings: async () => ({ ...meta, InstanceTypeOfferings: [] }),
    });
    const provider = new InstanceTypeProvider({
      ec2,
      prices: { onDemand: () => 1, spot: () => 1 },
      clock,
      timers: new ManualTimers(clock),
      logger,
    });
    await provider.refresh();
    expect(lines.find((l) => l.level === 'error')?.fields).toMatchObject({
      error: 'DescribeInstanceTypes: NextToken same returned twice; giving up paging',
    });
  });
});
