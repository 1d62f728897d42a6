import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { formatResourceList, parseResourceList } from '../scheduling/resources/resource-list.js';
import {
  computeAllocatable,
  newInstanceType,
  orderByPrice,
  satisfiesMinValues,
  truncateInstanceTypes,
} from './instance-type.js';
import { newOffering } from './offering.js';

function type(name: string, family: string, prices: { spot?: number; od?: number }) {
  const offerings = [];
  if (prices.spot !== undefined)
    offerings.push(newOffering({ zone: 'a', capacityType: 'spot', price: prices.spot }));
  if (prices.od !== undefined)
    offerings.push(newOffering({ zone: 'a', capacityType: 'on-demand', price: prices.od }));
  return newInstanceType({
    name,
    requirements: new Requirements([
      Requirement.create(Labels.InstanceType, 'In', [name]),
      Requirement.create('example.com/family', 'In', [family]),
    ]),
    offerings,
    capacity: parseResourceList({ cpu: '2', memory: '4Gi', pods: '110' }),
  });
}

describe('computeAllocatable', () => {
  it('takes kube-reserved, system-reserved, eviction threshold and hugepages off capacity', () => {
    const capacity = parseResourceList({ cpu: '4', memory: '16Gi', pods: '110', 'hugepages-2Mi': '1Gi' });
    const allocatable = computeAllocatable(capacity, {
      kubeReserved: parseResourceList({ cpu: '80m', memory: '1Gi' }),
      systemReserved: parseResourceList({ cpu: '20m' }),
      evictionThreshold: parseResourceList({ memory: '100Mi' }),
    });
    expect(formatResourceList(allocatable)).toEqual({
      cpu: '3900m',
      memory: '14236Mi',
      pods: '110',
      'hugepages-2Mi': '1Gi',
    });
  });

  it('never goes negative', () => {
    const allocatable = computeAllocatable(parseResourceList({ cpu: '1' }), {
      kubeReserved: parseResourceList({ cpu: '2' }),
      systemReserved: new Map(),
      evictionThreshold: new Map(),
    });
    expect(formatResourceList(allocatable)).toEqual({ cpu: '0' });
  });
});

describe('orderByPrice', () => {
  const types = [
    type('big', 'm', { od: 0.4, spot: 0.1 }),
    type('small', 'c', { od: 0.2 }),
    type('none', 'r', {}),
  ];

  it('orders by the cheapest launchable offering the requirements allow, unpriced last', () => {
    expect(orderByPrice(types, new Requirements()).map((t) => t.name)).toEqual(['big', 'small', 'none']);
    const onDemand = new Requirements([Requirement.create(Labels.CapacityType, 'In', ['on-demand'])]);
    expect(orderByPrice(types, onDemand).map((t) => t.name)).toEqual(['small', 'big', 'none']);
  });
});

describe('minValues', () => {
  const types = [
    type('c1', 'c', { od: 0.1 }),
    type('c2', 'c', { od: 0.2 }),
    type('m1', 'm', { od: 0.3 }),
    type('r1', 'r', { od: 0.4 }),
  ];
  const needTwo = new Requirements([Requirement.create('example.com/family', 'In', ['c', 'm', 'r'], 2)]);
  const needFour = new Requirements([Requirement.create('example.com/family', 'In', ['c', 'm', 'r'], 3)]);

  it('reports how long a prefix meets every minValues', () => {
    expect(satisfiesMinValues(types, needTwo)).toEqual({ satisfied: true, needed: 3 });
    expect(satisfiesMinValues(types, new Requirements())).toEqual({ satisfied: true, needed: 0 });
  });

  it('names the key that falls short', () => {
    expect(satisfiesMinValues(types.slice(0, 2), needTwo)).toEqual({
      satisfied: false,
      key: 'example.com/family',
      minValues: 2,
      found: 1,
    });
  });

  it('truncation keeps the cheapest types and fails when minValues no longer holds', () => {
    const ok = truncateInstanceTypes(types, needFour, 4);
    expect(ok.ok && ok.types.map((t) => t.name)).toEqual(['c1', 'c2', 'm1', 'r1']);
    const cut = truncateInstanceTypes(types, needFour, 3);
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.reason).toMatch(/example.com\/family needs 3 distinct values.*offer 2/);
  });
});
