import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { nodePoolSchema, podSchema } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import {
  checkSolution,
  normalizeLabelKey,
  Requirements,
  type SolverInput,
  solve,
} from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import type { AwsPrices } from '../ports.js';
import { buildInstanceType } from './build.js';
import { factsFromInstanceTypeInfo } from './facts.js';
import { G4dnXlarge, M5Large, M6gLarge } from './fixtures.js';
import { AwsWellKnownLabels } from './labels.js';

// Karpenter's AWS instancetype suite ("should support well known labels"): a pod selecting any
// well-known label, which its NodePool does not name, schedules onto a type that has it. Here
// over the real AWS building code (DescribeInstanceTypes entry -> facts -> requirements).

const withEbsAndClock = (info: InstanceTypeInfo, mbps: number, ghz: number): InstanceTypeInfo => ({
  ...info,
  ProcessorInfo: { ...info.ProcessorInfo, SustainedClockSpeedInGhz: ghz },
  EbsInfo: { EbsOptimizedSupport: 'default', EbsOptimizedInfo: { MaximumBandwidthInMbps: mbps } },
});

const Inf1Xlarge: InstanceTypeInfo = {
  InstanceType: 'inf1.xlarge',
  SupportedUsageClasses: ['on-demand'],
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], Manufacturer: 'Intel' },
  VCpuInfo: { DefaultVCpus: 4 },
  MemoryInfo: { SizeInMiB: 8192 },
  NeuronInfo: { NeuronDevices: [{ Name: 'Inferentia', Count: 1 }] },
  NetworkInfo: {
    MaximumNetworkInterfaces: 4,
    Ipv4AddressesPerInterface: 10,
    DefaultNetworkCardIndex: 0,
    NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 4, BaselineBandwidthInGbps: 5 }],
    EncryptionInTransitSupported: false,
  },
};

const prices: AwsPrices = {
  onDemand: (t) => ({ 'm5.large': 0.096, 'm6g.large': 0.077, 'g4dn.xlarge': 0.526, 'inf1.xlarge': 0.228 })[t],
  spot: () => undefined,
};
const zones = [
  { zone: 'us-east-1a', zoneID: 'use1-az1' },
  { zone: 'us-east-1b', zoneID: 'use1-az2' },
];

function built(info: InstanceTypeInfo): InstanceType {
  const result = factsFromInstanceTypeInfo(info);
  if (!('facts' in result)) throw new Error(result.skipped);
  return buildInstanceType(result.facts, {}, { zones, prices, region: 'us-east-1' });
}

const types = [
  built(withEbsAndClock(M5Large, 4750, 3.1)),
  built(M6gLarge),
  built(withEbsAndClock(G4dnXlarge, 3500, 2.5)),
  built(Inf1Xlarge),
];

const nodePool = nodePoolSchema.parse({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'x' },
        requirements: [],
      },
    },
  },
});

function podWith(spec: Record<string, unknown>) {
  return podSchema.parse({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'a', resources: { requests: { cpu: '100m' } } }], ...spec },
  });
}

function schedule(spec: Record<string, unknown>, declared = true) {
  const input: SolverInput = {
    pods: [podWith(spec)],
    existing: [],
    daemonSets: [],
    nodePools: [nodePool],
    instanceTypes: new Map([['default', types]]),
    ...(declared ? { wellKnownLabels: AwsWellKnownLabels } : {}),
  };
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return {
    types: result.newClaims.flatMap((c) => c.instanceTypes.map((t) => t.name)).sort(),
    unschedulable: result.unschedulable.map((u) => u.reason),
  };
}

/** The types whose requirements admit the selector, read off the built types, not the solver. */
function carrying(key: string, operator: string, values: string[] = []): string[] {
  const selector = Requirements.fromNodeSelectorRequirements([{ key, operator, values }]);
  return types
    .filter((t) => t.requirements.intersects(selector))
    .map((t) => t.name)
    .sort();
}

const affinity = (key: string, operator: string, values?: string[]) => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }],
      },
    },
  },
});

describe('AWS well-known labels in scheduling (Karpenter instancetype suite)', () => {
  const g4dn: [string, string][] = [
    ['topology.kubernetes.io/region', 'us-east-1'],
    ['karpenter.sh/nodepool', 'default'],
    ['topology.kubernetes.io/zone', 'us-east-1a'],
    ['node.kubernetes.io/instance-type', 'g4dn.xlarge'],
    ['kubernetes.io/os', 'linux'],
    ['kubernetes.io/arch', 'amd64'],
    ['karpenter.sh/capacity-type', 'on-demand'],
    ['karpenter.k8s.aws/instance-hypervisor', 'nitro'],
    ['karpenter.k8s.aws/instance-encryption-in-transit-supported', 'true'],
    ['karpenter.k8s.aws/instance-category', 'g'],
    ['karpenter.k8s.aws/instance-generation', '4'],
    ['karpenter.k8s.aws/instance-family', 'g4dn'],
    ['karpenter.k8s.aws/instance-size', 'xlarge'],
    ['karpenter.k8s.aws/instance-cpu', '4'],
    ['karpenter.k8s.aws/instance-cpu-manufacturer', 'intel'],
    ['karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz', '2500'],
    ['karpenter.k8s.aws/instance-memory', '16384'],
    ['karpenter.k8s.aws/instance-ebs-bandwidth', '3500'],
    ['karpenter.k8s.aws/instance-network-bandwidth', '5000'],
    ['karpenter.k8s.aws/instance-gpu-name', 't4'],
    ['karpenter.k8s.aws/instance-gpu-manufacturer', 'nvidia'],
    ['karpenter.k8s.aws/instance-gpu-count', '1'],
    ['karpenter.k8s.aws/instance-gpu-memory', '16384'],
    ['karpenter.k8s.aws/instance-local-nvme', '125'],
    ['karpenter.k8s.aws/instance-capability-flex', 'false'],
    ['topology.k8s.aws/zone-id', 'use1-az1'],
    // Deprecated aliases mean their stable keys.
    ['failure-domain.beta.kubernetes.io/region', 'us-east-1'],
    ['failure-domain.beta.kubernetes.io/zone', 'us-east-1a'],
    ['beta.kubernetes.io/arch', 'amd64'],
    ['beta.kubernetes.io/os', 'linux'],
    ['beta.kubernetes.io/instance-type', 'g4dn.xlarge'],
  ];
  it.each(g4dn)(
    'nodeSelector %s=%s schedules onto the types that have it (g4dn.xlarge among them)',
    (key, value) => {
      const r = schedule({ nodeSelector: { [key]: value } });
      expect(r.unschedulable).toEqual([]);
      expect(r.types).toContain('g4dn.xlarge');
      expect(r.types).toEqual(carrying(normalizeLabelKey(key), 'In', [value]));
    },
  );

  it.each([
    ['karpenter.k8s.aws/instance-accelerator-name', 'inferentia'],
    ['karpenter.k8s.aws/instance-accelerator-manufacturer', 'aws'],
    ['karpenter.k8s.aws/instance-accelerator-count', '1'],
  ])('nodeSelector %s=%s schedules onto the Inferentia type', (key, value) => {
    expect(schedule({ nodeSelector: { [key]: value } }).types).toEqual(['inf1.xlarge']);
  });

  it('every key the provider declares is defined by every type (DoesNotExist where it lacks the label)', () => {
    for (const t of types)
      for (const key of AwsWellKnownLabels) expect([t.name, t.requirements.has(key)]).toEqual([t.name, true]);
  });

  it('Exists on a GPU label schedules onto the GPU type only; DoesNotExist onto the others', () => {
    expect(schedule(affinity('karpenter.k8s.aws/instance-gpu-count', 'Exists')).types).toEqual([
      'g4dn.xlarge',
    ]);
    expect(schedule(affinity('karpenter.k8s.aws/instance-gpu-count', 'DoesNotExist')).types).toEqual(
      carrying('karpenter.k8s.aws/instance-gpu-count', 'DoesNotExist'),
    );
    expect(carrying('karpenter.k8s.aws/instance-gpu-count', 'DoesNotExist')).not.toContain('g4dn.xlarge');
  });

  it('Gt on a numeric well-known label selects by value', () => {
    expect(schedule(affinity('karpenter.k8s.aws/instance-memory', 'Gt', ['8192'])).types).toEqual([
      'g4dn.xlarge',
    ]);
  });

  it('a label no type has (capacity reservations) is refused with the requirement named', () => {
    expect(schedule(affinity('karpenter.k8s.aws/capacity-reservation-id', 'Exists')).unschedulable).toEqual([
      'NodePool default: requirement karpenter.k8s.aws/capacity-reservation-id Exists matches no instance type',
    ]);
  });

  it('a label that is not well known still fails, saying the NodePool does not have it', () => {
    expect(schedule({ nodeSelector: { 'example.com/unknown': 'x' } }).unschedulable).toEqual([
      "NodePool default: requires example.com/unknown In [x], a label the NodePool's nodes do not have",
    ]);
  });

  it('without the provider declaring them, an AWS label is as unknown as any other', () => {
    expect(
      schedule({ nodeSelector: { 'karpenter.k8s.aws/instance-family': 'm5' } }, false).unschedulable,
    ).toEqual([
      "NodePool default: requires karpenter.k8s.aws/instance-family In [m5], a label the NodePool's nodes do not have",
    ]);
  });
});
