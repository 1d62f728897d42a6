import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { parseResourceList } from '../scheduling/resources/resource-list.js';
import { fakeInstanceType } from '../testing/fake-instance-types.js';
import { launchOptions } from './launch-options.js';

const small = fakeInstanceType({ name: 'small', cpu: '2', memory: '4Gi', price: 0.1, zones: ['z-a', 'z-b'] });
const large = fakeInstanceType({ name: 'large', cpu: '8', memory: '16Gi', price: 0.4, zones: ['z-a'] });

function keys(requirements: Requirements, requests: Record<string, string> = {}): string[] {
  return launchOptions([large, small], requirements, parseResourceList(requests)).map(
    (o) => `${o.key.capacityType}:${o.key.instanceType}:${o.key.zone}`,
  );
}

describe('launchOptions', () => {
  it('lists every allowed available offering cheapest first, ties by type and zone', () => {
    expect(keys(new Requirements())).toEqual([
      'spot:small:z-a',
      'spot:small:z-b',
      'on-demand:small:z-a',
      'on-demand:small:z-b',
      'spot:large:z-a',
      'on-demand:large:z-a',
    ]);
  });

  it('leaves out types that do not fit the requests or match the requirements, and disallowed offerings', () => {
    const onDemandInB = Requirements.fromNodeSelectorRequirements([
      { key: Labels.CapacityType, operator: 'In', values: ['on-demand'] },
      { key: Labels.Zone, operator: 'In', values: ['z-b'] },
    ]);
    expect(keys(onDemandInB)).toEqual(['on-demand:small:z-b']);
    expect(keys(new Requirements(), { cpu: '4' })).toEqual(['spot:large:z-a', 'on-demand:large:z-a']);
  });
});
