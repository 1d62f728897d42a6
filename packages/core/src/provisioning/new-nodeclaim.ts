import { z } from 'zod';
import { Labels } from '../apis/labels.js';
import {
  type NodeClaim,
  NodeClaimApiVersion,
  type NodeClaimInput,
  nodeClaimSchema,
} from '../apis/v1/nodeclaim.js';
import { type NodePool, NodePoolApiVersion } from '../apis/v1/nodepool.js';
import { nodeClaimHashAnnotations } from '../nodepool/hash/nodepool-hash-controller.js';
import { formatResourceList } from '../scheduling/resources/resource-list.js';
import type { NewClaim } from '../scheduling/solver/types.js';

/** A NodeClaim ready to create, or why the solver's claim cannot become one. */
export type NewNodeClaimResult =
  | { readonly ok: true; readonly nodeClaim: NodeClaim }
  | { readonly ok: false; readonly reason: string };

/**
 * The NodeClaim the provisioner creates for one of the solver's new claims, as Karpenter builds
 * it from the NodePool template:
 *
 * - metadata: `generateName: <nodepool>-`; the template's labels plus `karpenter.sh/nodepool`;
 *   the template's annotations plus the NodePool hash annotations (so drift can compare them
 *   later); an owner reference to the NodePool (with its uid, blocking its deletion).
 * - spec: the template's taints, startup taints, nodeClassRef, expireAfter and
 *   terminationGracePeriod; the solver's requirements (NodePool requirements narrowed by the
 *   pods, `node.kubernetes.io/instance-type In` the kept types, capacity type) without the
 *   placeholder hostname the solver used for topology; `resources.requests` = the pods'
 *   requests plus DaemonSet overhead.
 *
 * The result is checked against the NodeClaim schema (the CRD's rules, e.g. at most 1000
 * values per requirement), so an object the API server would refuse is reported instead.
 */
export function newNodeClaim(nodePool: NodePool, claim: NewClaim): NewNodeClaimResult {
  const name = nodePool.metadata.name ?? claim.nodePool;
  const template = nodePool.spec.template;
  const spec = template.spec;
  const hash = nodeClaimHashAnnotations(nodePool) ?? {};
  const input: NodeClaimInput = {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      generateName: `${name}-`,
      labels: { ...template.metadata?.labels, [Labels.NodePool]: name },
      annotations: { ...template.metadata?.annotations, ...hash },
      ownerReferences: [
        {
          apiVersion: NodePoolApiVersion,
          kind: 'NodePool',
          name,
          ...(nodePool.metadata.uid === undefined ? {} : { uid: nodePool.metadata.uid }),
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeClassRef: { ...spec.nodeClassRef },
      requirements: claim.requirements
        .toNodeSelectorRequirements()
        .filter((r) => r.key !== Labels.Hostname)
        .map((r) => ({
          key: r.key,
          operator: r.operator,
          ...(r.values === undefined ? {} : { values: [...r.values] }),
          ...(r.minValues === undefined ? {} : { minValues: r.minValues }),
        })),
      resources: { requests: formatResourceList(claim.requests) },
      expireAfter: spec.expireAfter,
      ...(spec.taints === undefined ? {} : { taints: structuredClone(spec.taints) }),
      ...(spec.startupTaints === undefined ? {} : { startupTaints: structuredClone(spec.startupTaints) }),
      ...(spec.terminationGracePeriod === undefined
        ? {}
        : { terminationGracePeriod: spec.terminationGracePeriod }),
    },
  };
  const parsed = nodeClaimSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      reason: `the NodeClaim for NodePool ${name} would be invalid: ${z.prettifyError(parsed.error)}`,
    };
  }
  return { ok: true, nodeClaim: parsed.data };
}
