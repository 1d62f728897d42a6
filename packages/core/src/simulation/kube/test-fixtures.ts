import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { NodeTaint, Toleration } from '../../apis/kubernetes/taint.js';

/** Test helper: a Ready node with the given allocatable, labels and taints. */
export function simNode(
  name: string,
  options: {
    cpu?: string;
    memory?: string;
    pods?: string;
    labels?: Record<string, string>;
    taints?: NodeTaint[];
    ready?: boolean;
    unschedulable?: boolean;
  } = {},
): Node {
  const allocatable = {
    cpu: options.cpu ?? '4',
    memory: options.memory ?? '8Gi',
    pods: options.pods ?? '110',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(options.labels ?? {}) } },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
    },
  };
}

/** Test helper: a pending pod with one container requesting `cpu`/`memory`. */
export function simPod(
  name: string,
  options: {
    namespace?: string;
    cpu?: string;
    memory?: string;
    labels?: Record<string, string>;
    nodeName?: string;
    nodeSelector?: Record<string, string>;
    tolerations?: Toleration[];
    hostPort?: number;
    spec?: Partial<Pod['spec']>;
    annotations?: Record<string, string>;
  } = {},
): Pod {
  const requests: Record<string, string> = {};
  if (options.cpu) requests.cpu = options.cpu;
  if (options.memory) requests.memory = options.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    spec: {
      schedulerName: 'default-scheduler',
      containers: [
        {
          name: 'app',
          resources: { requests },
          ...(options.hostPort
            ? { ports: [{ containerPort: 80, hostPort: options.hostPort, protocol: 'TCP' }] }
            : {}),
        },
      ],
      ...(options.nodeName ? { nodeName: options.nodeName } : {}),
      ...(options.nodeSelector ? { nodeSelector: options.nodeSelector } : {}),
      ...(options.tolerations ? { tolerations: options.tolerations } : {}),
      ...(options.spec ?? {}),
    },
  };
}
