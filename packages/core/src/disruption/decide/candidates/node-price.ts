import { Labels } from '../../../apis/labels.js';
import type { InstanceType } from '../../../cloudprovider/instance-type.js';
import { isOfferingCompatible } from '../../../cloudprovider/offering.js';
import { Requirements } from '../../../scheduling/requirements/requirements.js';
import type { ManagedNode } from './managed-node.js';

/** What a node costs, or why that is unknown. */
export type NodePrice =
  | {
      readonly known: true;
      readonly instanceType: InstanceType;
      readonly capacityType: string;
      readonly zone: string;
      /** Per hour: the cheapest offering of its type matching its zone and capacity type. */
      readonly price: number;
    }
  | { readonly known: false; readonly instanceType: InstanceType | undefined; readonly problem: string };

/**
 * A node's price: the offering of its instance type (node.kubernetes.io/instance-type, looked up
 * in its NodePool's types, else any NodePool's) in its zone and capacity type. Unavailable
 * offerings still price a node that runs on one. Consolidation needs this; emptiness and drift
 * do not.
 */
export function nodePrice(
  node: Pick<ManagedNode, 'labels' | 'nodePool'>,
  instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
): NodePrice {
  const typeName = node.labels[Labels.InstanceType];
  if (typeName === undefined)
    return { known: false, instanceType: undefined, problem: `node has no ${Labels.InstanceType} label` };
  let type = instanceTypes.get(node.nodePool)?.find((t) => t.name === typeName);
  if (type === undefined) {
    for (const list of instanceTypes.values()) {
      type = list.find((t) => t.name === typeName);
      if (type !== undefined) break;
    }
  }
  if (type === undefined)
    return {
      known: false,
      instanceType: undefined,
      problem: `instance type ${typeName} is not in the catalog, so the node's price is unknown`,
    };
  const capacityType = node.labels[Labels.CapacityType];
  const zone = node.labels[Labels.Zone];
  if (capacityType === undefined || zone === undefined) {
    const missing = capacityType === undefined ? Labels.CapacityType : Labels.Zone;
    return {
      known: false,
      instanceType: type,
      problem: `node has no ${missing} label, so its price is unknown`,
    };
  }
  const requirements = Requirements.fromLabels(node.labels);
  let price = Number.POSITIVE_INFINITY;
  for (const o of type.offerings)
    if (isOfferingCompatible(o, requirements) && o.price < price) price = o.price;
  if (!Number.isFinite(price))
    return {
      known: false,
      instanceType: type,
      problem: `the catalog has no ${capacityType} offering of ${typeName} in ${zone}, so the node's price is unknown`,
    };
  return { known: true, instanceType: type, capacityType, zone, price };
}

/**
 * Node prices kept per ManagedNode object (see ManagedNodeMemo) while its NodePool's instance
 * type list is the same array (providers hand out a new one when an offering changes). Only a
 * price found in the node's own NodePool's list is kept: one found in another pool's depends on
 * that list too.
 */
export class NodePriceMemo {
  readonly #prices = new WeakMap<
    ManagedNode,
    { readonly types: readonly InstanceType[]; readonly price: NodePrice }
  >();

  price(node: ManagedNode, instanceTypes: ReadonlyMap<string, readonly InstanceType[]>): NodePrice {
    const types = instanceTypes.get(node.nodePool);
    const kept = this.#prices.get(node);
    if (kept !== undefined && kept.types === types) return kept.price;
    const price = nodePrice(node, instanceTypes);
    if (types !== undefined && price.instanceType !== undefined && types.includes(price.instanceType))
      this.#prices.set(node, { types, price });
    return price;
  }
}
