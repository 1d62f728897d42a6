import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { type InstanceType, newInstanceType } from '../../cloudprovider/instance-type.js';
import { newOffering } from '../../cloudprovider/offering.js';
import { Requirement } from '../../scheduling/requirements/requirement.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import { parseResourceList } from '../../scheduling/resources/resource-list.js';

/** Test helper: an instance type with one offering per `capacityType:zone` entry of `prices`. */
export function testInstanceType(
  name: string,
  resources: { cpu: string; memory: string; pods?: string },
  prices: Readonly<Record<string, number>>,
  extra: { reservationCapacity?: number } = {},
): InstanceType {
  const offerings = Object.entries(prices).map(([key, price]) => {
    const [capacityType = '', zone = ''] = key.split(':');
    return newOffering({
      capacityType,
      zone,
      price,
      ...(capacityType === 'reserved' && extra.reservationCapacity !== undefined
        ? { reservationCapacity: extra.reservationCapacity }
        : {}),
    });
  });
  const zones = [...new Set(offerings.map((o) => o.zone))];
  const capacityTypes = [...new Set(offerings.map((o) => o.capacityType))];
  return newInstanceType({
    name,
    requirements: new Requirements([
      Requirement.create(Labels.InstanceType, 'In', [name]),
      Requirement.create(Labels.Arch, 'In', ['amd64']),
      Requirement.create(Labels.OS, 'In', ['linux']),
      Requirement.create(Labels.Zone, 'In', zones),
      Requirement.create(Labels.CapacityType, 'In', capacityTypes),
    ]),
    offerings,
    capacity: parseResourceList({ pods: '110', ...resources }),
  });
}

/** Test helper: a NodeClaim allowing the given types, zones and capacity types. */
export function testNodeClaim(
  name: string,
  allow: {
    types?: string[];
    zones?: string[];
    capacityTypes?: string[];
    requests?: Record<string, string>;
  } = {},
  extra: Partial<NodeClaim['spec']> = {},
): NodeClaim {
  const requirements: NodeClaim['spec']['requirements'] = [];
  if (allow.types) requirements.push({ key: Labels.InstanceType, operator: 'In', values: allow.types });
  if (allow.zones) requirements.push({ key: Labels.Zone, operator: 'In', values: allow.zones });
  if (allow.capacityTypes)
    requirements.push({ key: Labels.CapacityType, operator: 'In', values: allow.capacityTypes });
  requirements.push({ key: Labels.NodePool, operator: 'In', values: ['default'] });
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { [Labels.NodePool]: 'default' } },
    spec: {
      requirements,
      nodeClassRef: { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass', name: 'default' },
      expireAfter: '720h',
      ...(allow.requests ? { resources: { requests: allow.requests } } : {}),
      ...extra,
    },
  };
}
