import { Labels, type NodeClaim, NodeClaimApiVersion, Taints } from '@nodewright/core/apis';
import type { LaunchOption } from '@nodewright/core/cloudprovider';
import type { KubeObject } from '@nodewright/core/kube';
import { formatResourceList } from '@nodewright/core/scheduling';
import { KWOKNodeClassAnnotations } from '../apis/hash.js';
import { KWOKNodeClassGroup, KWOKNodeClassKind } from '../apis/kwoknodeclass.js';
import { KwokAnnotationValue, KwokImageID, KwokNodeAnnotations, KwokNodeLabels } from './labels.js';
import { kwokProviderID } from './provider-id.js';

interface NodeTaint {
  key: string;
  value?: string;
  effect: string;
}

/** The parts of a v1 Node the KWOK provider writes and reads. */
export interface KwokNode extends KubeObject {
  spec?: { providerID?: string; taints?: NodeTaint[] };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    nodeInfo?: { architecture?: string; operatingSystem?: string };
  };
}

/** What a launch decided, for building the Node and the hydrated claim. */
export interface LaunchDecision {
  readonly nodeClaim: NodeClaim;
  readonly option: LaunchOption;
  readonly clusterName: string;
  /** The KWOKNodeClass hash at launch, for drift. */
  readonly nodeClassHash: string;
}

/**
 * The labels a launched node carries: the claim's own, every single-valued requirement of the
 * chosen instance type (type, arch, os, KWOK family/size/...), the offering's zone and capacity
 * type, the hostname (= the claim name) and the marker naming this cluster.
 */
export function launchLabels(d: LaunchDecision): Record<string, string> {
  const name = d.nodeClaim.metadata.name ?? '';
  return {
    ...(d.nodeClaim.metadata.labels ?? {}),
    ...d.option.instanceType.requirements.labels(),
    [Labels.InstanceType]: d.option.instanceType.name,
    [Labels.Zone]: d.option.offering.zone,
    [Labels.CapacityType]: d.option.offering.capacityType,
    [Labels.Hostname]: name,
    [KwokNodeLabels.ManagedBy]: d.clusterName,
  };
}

/**
 * The NodeClaim as `create` returns it: the resolved labels, the hash annotation, providerID,
 * imageID and the instance type's capacity and allocatable.
 */
export function hydratedClaim(d: LaunchDecision): NodeClaim {
  const out = structuredClone(d.nodeClaim);
  const name = out.metadata.name ?? '';
  out.metadata.labels = launchLabels(d);
  out.metadata.annotations = {
    ...(out.metadata.annotations ?? {}),
    [KWOKNodeClassAnnotations.Hash]: d.nodeClassHash,
  };
  out.status = {
    ...(out.status ?? {}),
    providerID: kwokProviderID(name),
    imageID: KwokImageID,
    capacity: formatResourceList(d.option.instanceType.capacity),
    allocatable: formatResourceList(d.option.instanceType.allocatable),
  };
  return out;
}

/**
 * The Node that stands for the instance: named as the claim, annotated for kwok, with the
 * launch labels, `karpenter.sh/unregistered:NoExecute` plus the claim's taints and startup
 * taints (as a kubelet bootstrapped by Karpenter registers), and the type's capacity.
 */
export function nodeForLaunch(d: LaunchDecision): KwokNode {
  const name = d.nodeClaim.metadata.name ?? '';
  const labels = launchLabels(d);
  const taints: NodeTaint[] = [{ ...Taints.Unregistered }];
  for (const t of [...(d.nodeClaim.spec.taints ?? []), ...(d.nodeClaim.spec.startupTaints ?? [])]) {
    if (!taints.some((have) => have.key === t.key && have.effect === t.effect)) taints.push({ ...t });
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels,
      annotations: {
        [KwokNodeAnnotations.Kwok]: KwokAnnotationValue,
        [KwokNodeAnnotations.NodeClass]: d.nodeClaim.spec.nodeClassRef.name,
        [KwokNodeAnnotations.ImageID]: KwokImageID,
        [KWOKNodeClassAnnotations.Hash]: d.nodeClassHash,
      },
    },
    spec: { providerID: kwokProviderID(name), taints },
    status: {
      capacity: formatResourceList(d.option.instanceType.capacity),
      allocatable: formatResourceList(d.option.instanceType.allocatable),
      nodeInfo: {
        architecture: labels[Labels.Arch] ?? 'amd64',
        operatingSystem: labels[Labels.OS] ?? 'linux',
      },
    },
  };
}

/** Whether the Node was launched by this provider for `clusterName`. */
export function isOwnedNode(node: KwokNode, clusterName: string): boolean {
  return node.metadata.labels?.[KwokNodeLabels.ManagedBy] === clusterName;
}

/** Requirement keys the NodeClaim view of a Node states (what a launch resolved). */
const ViewRequirementKeys = [Labels.InstanceType, Labels.Zone, Labels.CapacityType, Labels.NodePool] as const;

/**
 * The NodeClaim view of a Node this provider launched (for `get` and `list`): its name, labels,
 * hash annotation and deletion state; requirements pinning the resolved type, zone, capacity type
 * and NodePool; the KWOKNodeClass reference; providerID, imageID, capacity and allocatable.
 */
export function nodeClaimView(node: KwokNode): NodeClaim {
  const labels = node.metadata.labels ?? {};
  const annotations = node.metadata.annotations ?? {};
  const name = node.metadata.name ?? '';
  const requirements = ViewRequirementKeys.flatMap((key) =>
    labels[key] === undefined ? [] : [{ key, operator: 'In' as const, values: [labels[key]] }],
  );
  const hash = annotations[KWOKNodeClassAnnotations.Hash];
  return {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      name,
      labels: { ...labels },
      ...(hash !== undefined ? { annotations: { [KWOKNodeClassAnnotations.Hash]: hash } } : {}),
      ...(node.metadata.creationTimestamp !== undefined
        ? { creationTimestamp: node.metadata.creationTimestamp }
        : {}),
      ...(node.metadata.deletionTimestamp !== undefined
        ? { deletionTimestamp: node.metadata.deletionTimestamp }
        : {}),
    },
    spec: {
      requirements,
      nodeClassRef: {
        group: KWOKNodeClassGroup,
        kind: KWOKNodeClassKind,
        name: annotations[KwokNodeAnnotations.NodeClass] ?? '',
      },
      expireAfter: '720h',
    },
    status: {
      providerID: node.spec?.providerID ?? kwokProviderID(name),
      imageID: annotations[KwokNodeAnnotations.ImageID] ?? KwokImageID,
      capacity: { ...(node.status?.capacity ?? {}) },
      allocatable: { ...(node.status?.allocatable ?? {}) },
    },
  };
}
