import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import {
  cheapestLaunchPrice,
  cheapestOffering,
  isOfferingCompatible,
  launchableOfferings,
  mostExpensiveOffering,
  newOffering,
  worstLaunchPrice,
} from './offering.js';

const offerings = [
  newOffering({ zone: 'a', capacityType: 'spot', price: 0.05 }),
  newOffering({ zone: 'b', capacityType: 'spot', price: 0.07 }),
  newOffering({ zone: 'c', capacityType: 'spot', price: 0.01, available: false }),
  newOffering({ zone: 'a', capacityType: 'on-demand', price: 0.2 }),
  newOffering({ zone: 'b', capacityType: 'on-demand', price: 0.21 }),
];
const zoneA = new Requirements([Requirement.create(Labels.Zone, 'In', ['a'])]);
const onDemand = new Requirements([Requirement.create(Labels.CapacityType, 'In', ['on-demand'])]);

describe('offerings', () => {
  it('a provider key on an offering (AWS zone-id) only matters when the claim constrains it', () => {
    const zoneId = 'topology.k8s.aws/zone-id';
    const o = newOffering({
      zone: 'a',
      capacityType: 'spot',
      price: 0.05,
      extraRequirements: [Requirement.create(zoneId, 'In', ['use1-az1'])],
    });
    expect(isOfferingCompatible(o, new Requirements())).toBe(true);
    expect(isOfferingCompatible(o, zoneA)).toBe(true);
    expect(isOfferingCompatible(o, new Requirements([Requirement.create(zoneId, 'In', ['use1-az1'])]))).toBe(
      true,
    );
    expect(isOfferingCompatible(o, new Requirements([Requirement.create(zoneId, 'In', ['use1-az2'])]))).toBe(
      false,
    );
    expect(isOfferingCompatible(o, new Requirements([Requirement.create(Labels.Zone, 'In', ['b'])]))).toBe(
      false,
    );
    expect(isOfferingCompatible(o, onDemand)).toBe(false);
  });

  it('a price that is not finite makes an offering unlaunchable', () => {
    expect(newOffering({ zone: 'a', capacityType: 'spot', price: Number.NaN }).available).toBe(false);
  });

  it('launchable = available and compatible', () => {
    expect(launchableOfferings(offerings, zoneA).map((o) => `${o.capacityType}/${o.zone}`)).toEqual([
      'spot/a',
      'on-demand/a',
    ]);
  });

  it('cheapest and most expensive ignore availability; launch price does not', () => {
    expect(cheapestOffering(offerings)?.price).toBe(0.01);
    expect(mostExpensiveOffering(offerings)?.price).toBe(0.21);
    expect(cheapestLaunchPrice(offerings, new Requirements())).toBe(0.05);
    expect(cheapestLaunchPrice(offerings, onDemand)).toBe(0.2);
    expect(
      cheapestLaunchPrice(offerings, new Requirements([Requirement.create(Labels.Zone, 'In', ['z'])])),
    ).toBe(Number.POSITIVE_INFINITY);
  });

  it('worst launch price is the dearest offering of the first capacity type that has one', () => {
    expect(worstLaunchPrice(offerings, new Requirements())).toBe(0.07);
    expect(worstLaunchPrice(offerings, onDemand)).toBe(0.21);
    expect(worstLaunchPrice(offerings, zoneA)).toBe(0.05);
  });
});
