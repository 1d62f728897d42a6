import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AKSNodeClasses, aksNodeClassKind, kubeReservedCpuMillis } from '@nodewright/azure';
import { type AzureMock, type AzureMockOptions, startAzureMock } from '@nodewright/conformance/mocks';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ResourceType, UntypedObject } from '@nodewright/core/kube';
import type { ClusterE2ETarget, MockCloud } from '../e2e/target.js';
import { mockAzureSettings } from './azure-harness.js';

/** The one cheap size the suite's NodePools pin: Standard_D2s_v5, 2 vCPU. */
const SingleType = { name: 'Standard_D2s_v5', vcpus: 2 } as const;

/** How long the kubelet harness takes to register a running mock VM as a Node. */
export const AzureBootDelayMs = 1_000;

/**
 * The ARM mock as an e2e MockCloud: its VMs for the kubelet harness, and the `--set` settings
 * that point `nodewright controller --provider azure` at it. The controller runs in another
 * process, so the mock's CA goes to a file it reads (`caFile`) rather than an agent.
 */
export async function azureMockCloud(mock: AzureMock): Promise<MockCloud> {
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-azure-ca-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, mock.caPem);
  return {
    source: mock.instances,
    settings: mockAzureSettings(mock, { caFile, pollInterval: '20ms' }),
    bootDelayMs: AzureBootDelayMs,
    stop: () => mock.close(),
  };
}

/** An AKSNodeClass on Ubuntu 22.04 in the settings' subnet, which the mock's status turns Ready. */
export function mockAKSNodeClass(name: string): UntypedObject {
  return {
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name },
    spec: { imageFamily: 'Ubuntu2204', tags: { team: 'e2e' } },
  } as unknown as UntypedObject;
}

/**
 * The cluster end-to-end target for Azure: AKSNodeClasses on Ubuntu 22.04, NodePools pinned to
 * on-demand Standard_D2s_v5, and a fresh ARM mock (TLS with its own CA) per e2e file behind the
 * controller.
 */
export function azureE2ETarget(
  mockOptions: AzureMockOptions = {},
): ClusterE2ETarget & { readonly mock: () => AzureMock | undefined } {
  let mock: AzureMock | undefined;
  return {
    name: 'azure (ARM + Retail Prices mock)',
    provider: 'azure',
    nodeClassKinds: [aksNodeClassKind as KindDefinition],
    nodeClassType: AKSNodeClasses as unknown as ResourceType,
    nodeClass: (name) => mockAKSNodeClass(name),
    nodeClassRef: (name) => ({ group: 'karpenter.azure.com', kind: 'AKSNodeClass', name }),
    singleType: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [SingleType.name] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      allocatableMilliCpu: SingleType.vcpus * 1000 - kubeReservedCpuMillis(SingleType.vcpus),
    },
    mockCloud: async () => {
      mock = await startAzureMock(mockOptions);
      return azureMockCloud(mock);
    },
    mock: () => mock,
  };
}
