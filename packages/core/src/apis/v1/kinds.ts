import type { KindDefinition } from '../kind.js';
import { Group } from '../labels.js';
import { type NodeClaim, nodeClaimSchema } from './nodeclaim.js';
import { type NodePool, nodePoolSchema } from './nodepool.js';

const ReadyColumn = {
  name: 'Ready',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
} as const;
const AgeColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' } as const;

/** `karpenter.sh/v1` NodePool: cluster-scoped, with status and scale (replicas) subresources. */
export const nodePoolKind: KindDefinition<NodePool> = {
  apiVersion: `${Group}/v1`,
  kind: 'NodePool',
  namespaced: false,
  schema: nodePoolSchema,
  crd: {
    group: Group,
    version: 'v1',
    plural: 'nodepools',
    singular: 'nodepool',
    categories: ['karpenter'],
    subresources: {
      status: true,
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.nodes' },
    },
    printerColumns: [
      { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
      { name: 'Nodes', type: 'string', jsonPath: '.status.nodes' },
      ReadyColumn,
      AgeColumn,
      { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
      { name: 'CPU', type: 'string', jsonPath: '.status.resources.cpu', priority: 1 },
      { name: 'Memory', type: 'string', jsonPath: '.status.resources.memory', priority: 1 },
    ],
  },
};

/** `karpenter.sh/v1` NodeClaim: cluster-scoped, with a status subresource. */
export const nodeClaimKind: KindDefinition<NodeClaim> = {
  apiVersion: `${Group}/v1`,
  kind: 'NodeClaim',
  namespaced: false,
  schema: nodeClaimSchema,
  crd: {
    group: Group,
    version: 'v1',
    plural: 'nodeclaims',
    singular: 'nodeclaim',
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type' },
      { name: 'Capacity', type: 'string', jsonPath: '.metadata.labels.karpenter\\.sh/capacity-type' },
      { name: 'Zone', type: 'string', jsonPath: '.metadata.labels.topology\\.kubernetes\\.io/zone' },
      { name: 'Node', type: 'string', jsonPath: '.status.nodeName' },
      ReadyColumn,
      AgeColumn,
      { name: 'ImageID', type: 'string', jsonPath: '.status.imageID', priority: 1 },
      { name: 'ID', type: 'string', jsonPath: '.status.providerID', priority: 1 },
      { name: 'NodePool', type: 'string', jsonPath: '.metadata.labels.karpenter\\.sh/nodepool', priority: 1 },
      { name: 'NodeClass', type: 'string', jsonPath: '.spec.nodeClassRef.name', priority: 1 },
      {
        name: 'Drifted',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Drifted")].status',
        priority: 1,
      },
    ],
  },
};

/** The kinds nodewright's core defines and ships CRDs for. Providers add their NodeClasses. */
export const coreCrdKinds: readonly KindDefinition[] = [nodePoolKind, nodeClaimKind];
