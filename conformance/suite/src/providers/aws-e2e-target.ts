import { EC2NodeClasses, ec2NodeClassKind, kubeReservedMilliCpu } from '@nodewright/aws';
import { type AwsMock, type AwsMockOptions, startAwsMock } from '@nodewright/conformance/mocks/aws';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ResourceType, UntypedObject } from '@nodewright/core/kube';
import type { ClusterE2ETarget, MockCloud } from '../e2e/target.js';
import { mockAwsSettings, mockEC2NodeClass } from './aws-harness.js';

/** The one cheap type the suite's NodePools pin: m5.large, 2 vCPU. */
const SingleType = { name: 'm5.large', vcpus: 2 } as const;

/** How long the kubelet harness takes to register a running mock instance as a Node. */
export const AwsBootDelayMs = 1_000;

/**
 * The AWS mock as an e2e MockCloud: its instances for the kubelet harness, and the `--set`
 * settings (endpoint, region, static credentials, interruption queue, Kubernetes version,
 * cluster endpoint) that point `nodewright controller --provider aws` at it.
 */
export function awsMockCloud(mock: AwsMock): MockCloud {
  return {
    source: mock.instances,
    settings: mockAwsSettings(mock, { interruptionQueue: mock.interruptionQueue.name }),
    bootDelayMs: AwsBootDelayMs,
    stop: () => mock.close(),
  };
}

/**
 * The cluster end-to-end target for AWS: EC2NodeClasses discovering the mock's seeded VPC by
 * its `karpenter.sh/discovery` tag, NodePools pinned to on-demand m5.large, and a fresh mock
 * (`startAwsMock(mockOptions)`) per e2e file behind the controller.
 */
export function awsE2ETarget(
  mockOptions: AwsMockOptions = {},
  /** Where the mock listens, asked when it starts (the kind network's host address). */
  mockHost?: () => Promise<string>,
): ClusterE2ETarget & {
  /** The mock of the running file, once `mockCloud` started it. */
  readonly mock: () => AwsMock | undefined;
} {
  let mock: AwsMock | undefined;
  const discovery = mockOptions.cluster ?? 'nodewright';
  return {
    name: 'aws (EC2/Pricing/SQS mock)',
    provider: 'aws',
    nodeClassKinds: [ec2NodeClassKind as KindDefinition],
    nodeClassType: EC2NodeClasses as unknown as ResourceType,
    nodeClass: (name) => mockEC2NodeClass(name, discovery) as unknown as UntypedObject,
    nodeClassRef: (name) => ({ group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name }),
    singleType: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [SingleType.name] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      allocatableMilliCpu: SingleType.vcpus * 1000 - kubeReservedMilliCpu(SingleType.vcpus),
    },
    mockCloud: async () => {
      mock = await startAwsMock(mockHost ? { ...mockOptions, host: await mockHost() } : mockOptions);
      return awsMockCloud(mock);
    },
    mock: () => mock,
  };
}
