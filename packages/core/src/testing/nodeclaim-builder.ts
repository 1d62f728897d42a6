import { z } from 'zod';
import { Annotations, Labels } from '../apis/labels.js';
import { type NodeClaim, type NodeClaimInput, nodeClaimSchema } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../apis/v1/nodepool-hash.js';
import { type DeepPartial, mergeOverrides } from './merge.js';
import { TestNodeClassRef } from './node-class.js';

function baseNodeClaim(): NodeClaimInput {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'default-abcde', labels: { [Labels.NodePool]: 'default' } },
    spec: {
      nodeClassRef: { ...TestNodeClassRef },
      requirements: [{ key: Labels.NodePool, operator: 'In', values: ['default'] }],
      resources: { requests: { cpu: '100m', memory: '128Mi', pods: '1' } },
    },
  };
}

function parse(input: NodeClaimInput): NodeClaim {
  const parsed = nodeClaimSchema.safeParse(input);
  if (!parsed.success) throw new Error(`aNodeClaim: invalid NodeClaim\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * A valid NodeClaim of NodePool `default` (name `default-abcde`, small requests, the test
 * NodeClass), overrides merged in; defaults applied as the API server would.
 * @throws Error with the schema's message when the overrides make it invalid.
 */
export function aNodeClaim(overrides?: DeepPartial<NodeClaimInput>): NodeClaim {
  return parse(mergeOverrides(baseNodeClaim(), overrides));
}

/**
 * A NodeClaim as the provisioner would create it for `nodePool`: its template's labels,
 * annotations, taints, startup taints, nodeClassRef, expireAfter and terminationGracePeriod;
 * requirements = the template's plus `karpenter.sh/nodepool In [pool]`; the NodePool hash
 * annotations; an owner reference to the pool (with its uid when it has one). Overrides last.
 */
export function aNodeClaimFor(nodePool: NodePool, overrides?: DeepPartial<NodeClaimInput>): NodeClaim {
  const pool = nodePool.metadata.name ?? 'default';
  const template = nodePool.spec.template;
  const base: NodeClaimInput = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `${pool}-abcde`,
      labels: { ...template.metadata?.labels, [Labels.NodePool]: pool },
      annotations: {
        ...template.metadata?.annotations,
        [Annotations.NodePoolHash]: nodePoolTemplateHash(nodePool),
        [Annotations.NodePoolHashVersion]: NodePoolHashVersion,
      },
      ownerReferences: [
        {
          apiVersion: 'karpenter.sh/v1',
          kind: 'NodePool',
          name: pool,
          ...(nodePool.metadata.uid === undefined ? {} : { uid: nodePool.metadata.uid }),
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeClassRef: { ...template.spec.nodeClassRef },
      requirements: [
        ...template.spec.requirements.map((r) => ({ ...r })),
        { key: Labels.NodePool, operator: 'In', values: [pool] },
      ],
      resources: { requests: { cpu: '100m', memory: '128Mi', pods: '1' } },
      expireAfter: template.spec.expireAfter,
      ...(template.spec.taints === undefined ? {} : { taints: structuredClone(template.spec.taints) }),
      ...(template.spec.startupTaints === undefined
        ? {}
        : { startupTaints: structuredClone(template.spec.startupTaints) }),
      ...(template.spec.terminationGracePeriod === undefined
        ? {}
        : { terminationGracePeriod: template.spec.terminationGracePeriod }),
    },
  };
  return parse(mergeOverrides(base, overrides));
}
