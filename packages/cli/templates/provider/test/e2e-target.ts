import type { ClusterE2ETarget } from '@nodewright/conformance';
import {
  NodeClassApiVersion,
  NodeClasses,
  NodeClassGroup,
  NodeClassKindName,
  nodeClassKind,
} from '../src/apis/nodeclass.js';
import { ProviderName } from '../src/provider-name.js';
import { KubeReserved } from './mock-catalog.js';
import { MockCloud } from './mock-cloud.js';

/** How long the kubelet harness takes to turn a running mock instance into a Node. */
const BootDelayMs = 1_000;

/**
 * The provider as the cluster end-to-end suite drives it: NodeClasses of the provider's kind,
 * NodePools pinned to on-demand standard-2 (2 vCPU), and a fresh mock cloud per run whose URL
 * the controller gets as `--set endpoint=...`.
 */
export const e2eTarget: ClusterE2ETarget = {
  name: 'acme (mock cloud)',
  provider: ProviderName,
  nodeClassKinds: [nodeClassKind],
  nodeClassType: NodeClasses,
  nodeClass: (name) => ({
    apiVersion: NodeClassApiVersion,
    kind: NodeClassKindName,
    metadata: { name },
    spec: { image: 'node-image-1' },
  }),
  nodeClassRef: (name) => ({ group: NodeClassGroup, kind: NodeClassKindName, name }),
  singleType: {
    requirements: [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['standard-2'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
    ],
    allocatableMilliCpu: 2000 - Number.parseInt(KubeReserved.cpu, 10),
  },
  mockCloud: async () => {
    const cloud = await new MockCloud().start();
    return {
      source: cloud,
      settings: { endpoint: cloud.url },
      bootDelayMs: BootDelayMs,
      stop: () => cloud.stop(),
    };
  },
};
