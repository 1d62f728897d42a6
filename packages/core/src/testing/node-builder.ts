import { z } from 'zod';
import { type Node, nodeSchema } from '../apis/kubernetes/node.js';
import { Labels, Taints } from '../apis/labels.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { type DeepPartial, mergeOverrides } from './merge.js';

export type NodeInput = z.input<typeof nodeSchema>;

/** The time conditions carry when a test does not care (the API server needs one). */
const SOME_TIME = '2026-01-01T00:00:00Z';

function baseNode(name: string): NodeInput {
  const resources = { cpu: '4', memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [Labels.Hostname]: name } },
    spec: {},
    status: {
      capacity: { ...resources },
      allocatable: { ...resources },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastTransitionTime: SOME_TIME }],
    },
  };
}

function parse(input: NodeInput): Node {
  const parsed = nodeSchema.safeParse(input);
  if (!parsed.success) throw new Error(`aNode: invalid Node\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * A valid, Ready Node (`node-1`, 4 CPU, 16Gi, 110 pods, hostname label), overrides merged in.
 * The hostname label follows an overridden name unless the overrides set it.
 */
export function aNode(overrides?: DeepPartial<NodeInput>): Node {
  const name = overrides?.metadata?.name ?? 'node-1';
  return parse(mergeOverrides(baseNode(name), overrides));
}

/** Options of `aNodeFor`. */
export interface NodeForOptions {
  /** Ready condition status; default True. */
  readonly ready?: 'True' | 'False' | 'Unknown';
  /** Registers without the karpenter.sh/unregistered taint (as a misconfigured image would). */
  readonly withoutUnregisteredTaint?: boolean;
}

/**
 * The Node a kubelet registers for a launched NodeClaim: named after the claim, its providerID,
 * the claim's labels, the `karpenter.sh/unregistered:NoExecute` taint plus the claim's taints
 * and startup taints, capacity and allocatable from the claim's status. Overrides last.
 * @throws Error when the claim has no providerID yet (not launched).
 */
export function aNodeFor(
  claim: NodeClaim,
  overrides?: DeepPartial<NodeInput>,
  options: NodeForOptions = {},
): Node {
  const providerID = claim.status?.providerID;
  if (providerID === undefined) throw new Error(`aNodeFor: NodeClaim ${claim.metadata.name} is not launched`);
  const name = overrides?.metadata?.name ?? claim.metadata.name ?? 'node-1';
  const base = baseNode(name);
  const defaults = base.status as { capacity: Record<string, string>; allocatable: Record<string, string> };
  const taints = [
    ...(options.withoutUnregisteredTaint === true ? [] : [{ ...Taints.Unregistered }]),
    ...(claim.spec.taints ?? []),
    ...(claim.spec.startupTaints ?? []),
  ];
  const node: NodeInput = {
    ...base,
    metadata: { name, labels: { ...claim.metadata.labels, [Labels.Hostname]: name } },
    spec: { providerID, ...(taints.length > 0 ? { taints: structuredClone(taints) } : {}) },
    status: {
      capacity: { ...(claim.status?.capacity ?? defaults.capacity) },
      allocatable: { ...(claim.status?.allocatable ?? defaults.allocatable) },
      conditions: [
        {
          type: 'Ready',
          status: options.ready ?? 'True',
          reason:
            options.ready === undefined || options.ready === 'True' ? 'KubeletReady' : 'KubeletNotReady',
          lastTransitionTime: SOME_TIME,
        },
      ],
    },
  };
  return parse(mergeOverrides(node, overrides));
}
