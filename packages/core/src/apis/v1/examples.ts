import type { NodeClaimInput } from './nodeclaim.js';
import type { NodePoolInput } from './nodepool.js';

/**
 * Valid manifests to start tests from: each call returns a fresh object that passes its
 * schema, so a test can change one field and know any error comes from that change.
 */
export function exampleNodePool(): NodePoolInput {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        metadata: { labels: { team: 'web' } },
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [
            { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
          ],
        },
      },
    },
  };
}

export function exampleNodeClaim(): NodeClaimInput {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'default-x7k2p', labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large', 'm5.xlarge'] },
      ],
      resources: { requests: { cpu: '1500m', memory: '2Gi', pods: 3 } },
    },
  };
}

/**
 * A copy of `base` with the value at `path` replaced (created along the way if missing), or
 * removed when `value` is undefined. Lets tests write values the types would not allow.
 */
export function withValue<T>(base: T, path: readonly (string | number)[], value: unknown): T {
  const copy = structuredClone(base) as unknown;
  let node = copy as Record<string | number, unknown>;
  for (const [i, segment] of path.entries()) {
    if (i === path.length - 1) {
      if (value === undefined) delete node[segment];
      else node[segment] = value;
      break;
    }
    if (typeof node[segment] !== 'object' || node[segment] === null) {
      node[segment] = typeof path[i + 1] === 'number' ? [] : {};
    }
    node = node[segment] as Record<string | number, unknown>;
  }
  return copy as T;
}
