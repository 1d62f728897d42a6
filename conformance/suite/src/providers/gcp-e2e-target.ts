import * as gcp from '@nodewright/conformance/mocks/gcp';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ResourceType, UntypedObject } from '@nodewright/core/kube';
import { GCENodeClasses, gceNodeClassKind, gkeReservedMilliCpu } from '@nodewright/gcp';
import type { ClusterE2ETarget, MockCloud } from '../e2e/target.js';
import { mockGCENodeClass, mockGcpSettings } from './gcp-harness.js';

/** The one cheap type the suite's NodePools pin: n2-standard-2, 2 vCPU. */
const SingleType = { name: 'n2-standard-2', vcpus: 2 } as const;

/** How long the kubelet harness takes to register a running mock VM as a Node. */
export const GcpBootDelayMs = 1_000;

/** The GCE mock as an e2e MockCloud: its VMs for the kubelet harness, and the `--set` settings that point the controller at it. */
export function gcpMockCloud(mock: gcp.GcpMock): MockCloud {
  return {
    source: mock.instances,
    settings: mockGcpSettings(mock),
    bootDelayMs: GcpBootDelayMs,
    stop: () => mock.close(),
  };
}

/**
 * The cluster end-to-end target for GCP: GCENodeClasses on the COS alias, NodePools pinned to
 * on-demand n2-standard-2, and a fresh Compute Engine mock per e2e file behind the controller.
 */
export function gcpE2ETarget(): ClusterE2ETarget & { readonly mock: () => gcp.GcpMock | undefined } {
  let mock: gcp.GcpMock | undefined;
  return {
    name: 'gcp (Compute Engine + billing catalog mock)',
    provider: 'gcp',
    nodeClassKinds: [gceNodeClassKind as KindDefinition],
    nodeClassType: GCENodeClasses as unknown as ResourceType,
    nodeClass: (name) => mockGCENodeClass(name) as unknown as UntypedObject,
    nodeClassRef: (name) => ({ group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name }),
    singleType: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [SingleType.name] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      allocatableMilliCpu: SingleType.vcpus * 1000 - gkeReservedMilliCpu(SingleType.vcpus, false),
    },
    mockCloud: async () => {
      mock = await gcp.startGcpMock({ project: 'contract-project' });
      return gcpMockCloud(mock);
    },
    mock: () => mock,
  };
}
