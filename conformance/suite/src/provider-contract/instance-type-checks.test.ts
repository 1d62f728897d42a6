import { Labels } from '@nodewright/core/apis';
import { newInstanceType, newOffering } from '@nodewright/core/cloudprovider';
import { parseResourceList, Requirement, Requirements } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import {
  compatibleOfferings,
  instanceTypeProblems,
  unsatisfiedRequirements,
} from './instance-type-checks.js';

function type(
  name: string,
  overrides: { cpu?: string; allocatableCpu?: string; price?: number; drop?: string } = {},
) {
  const requirements = [
    Requirement.create(Labels.InstanceType, 'In', [name]),
    Requirement.create(Labels.Arch, 'In', ['amd64']),
    Requirement.create(Labels.OS, 'In', ['linux']),
    Requirement.create(Labels.Zone, 'In', ['z1', 'z2']),
    Requirement.create(Labels.CapacityType, 'In', ['spot', 'on-demand']),
  ].filter((r) => r.key !== overrides.drop);
  const t = newInstanceType({
    name,
    requirements: new Requirements(requirements),
    capacity: parseResourceList({ cpu: overrides.cpu ?? '2', memory: '4Gi' }),
    offerings: [
      newOffering({ zone: 'z1', capacityType: 'spot', price: overrides.price ?? 0.1 }),
      newOffering({ zone: 'z2', capacityType: 'on-demand', price: (overrides.price ?? 0.1) * 2 }),
    ],
  });
  if (overrides.allocatableCpu === undefined) return t;
  return { ...t, allocatable: parseResourceList({ cpu: overrides.allocatableCpu, memory: '4Gi' }) };
}

describe('instanceTypeProblems', () => {
  it('accepts well-formed types', () => {
    expect(instanceTypeProblems([type('a'), type('b')])).toEqual([]);
  });

  it('names a missing well-known label, allocatable above capacity and a non-positive price', () => {
    expect(instanceTypeProblems([type('a', { drop: Labels.Arch })])).toEqual([
      'a: requirements lack kubernetes.io/arch',
    ]);
    expect(instanceTypeProblems([type('a', { allocatableCpu: '3' })])).toEqual([
      'a: allocatable cpu 3 exceeds capacity 2',
    ]);
    expect(instanceTypeProblems([type('a', { price: 0 })])).toEqual([
      'a offering spot/z1: price 0 is not positive',
      'a offering on-demand/z2: price 0 is not positive',
    ]);
    expect(instanceTypeProblems([])).toEqual(['no instance types']);
  });
});

describe('compatibleOfferings', () => {
  it('lists only offerings the requirements allow on types that fit, cheapest first', () => {
    const types = [type('small', { cpu: '2', price: 0.1 }), type('big', { cpu: '8', price: 0.05 })];
    const reqs = new Requirements([Requirement.create(Labels.CapacityType, 'In', ['on-demand'])]);
    expect(compatibleOfferings(types, reqs, parseResourceList({ cpu: '1' }))).toEqual([
      { instanceType: 'big', zone: 'z2', capacityType: 'on-demand', price: 0.1 },
      { instanceType: 'small', zone: 'z2', capacityType: 'on-demand', price: 0.2 },
    ]);
    expect(
      compatibleOfferings(types, reqs, parseResourceList({ cpu: '4' })).map((o) => o.instanceType),
    ).toEqual(['big']);
  });
});

describe('unsatisfiedRequirements', () => {
  it('reports a label outside the requirement and a required label that is absent', () => {
    const reqs = new Requirements([
      Requirement.create(Labels.Zone, 'In', ['z1']),
      Requirement.create('team', 'Exists', []),
      Requirement.create('gpu', 'DoesNotExist', []),
    ]);
    expect(unsatisfiedRequirements(reqs, { [Labels.Zone]: 'z1', team: 'a' })).toEqual([]);
    expect(unsatisfiedRequirements(reqs, { [Labels.Zone]: 'z2' })).toHaveLength(2);
  });
});
