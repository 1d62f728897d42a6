import { describe, expect, it } from 'vitest';
import { parseResourceList } from '../resources/index.js';
import { instanceType, nodePool } from '../solver/testing/builders.js';
import { lowerBoundPerHour } from './lower-bound.js';
import { nodePoolOfferings } from './node-pool-offerings.js';

describe('nodePoolOfferings', () => {
  const types = [
    instanceType('c-4', { cpu: '4', memory: '8Gi', price: 1, labels: { family: 'c' } }),
    instanceType('r-4', { cpu: '4', memory: '32Gi', price: 2, labels: { family: 'r' } }),
  ];

  it('keeps only the types and offerings some NodePool allows', () => {
    const onDemandC = nodePool('od', {
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        { key: 'family', operator: 'In', values: ['c'] },
      ],
    });
    const out = nodePoolOfferings(types, [onDemandC]);
    expect(out.map((t) => t.name)).toEqual(['c-4']);
    expect(new Set(out[0]!.offerings.map((o) => o.capacityType))).toEqual(new Set(['on-demand']));
    // The bound follows: on-demand at 1 per 4 cpu, not spot at 0.7.
    expect(lowerBoundPerHour([parseResourceList({ cpu: '4' })], out)).toBeCloseTo(1, 6);
    expect(lowerBoundPerHour([parseResourceList({ cpu: '4' })], types)).toBeCloseTo(0.7, 6);
  });

  it('takes the union over NodePools', () => {
    const spotR = nodePool('spot', {
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
        { key: 'family', operator: 'In', values: ['r'] },
      ],
    });
    const onDemand = nodePool('od', {
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
    });
    const out = nodePoolOfferings(types, [spotR, onDemand]);
    const r = out.find((t) => t.name === 'r-4')!;
    expect(new Set(r.offerings.map((o) => o.capacityType))).toEqual(new Set(['spot', 'on-demand']));
    const c = out.find((t) => t.name === 'c-4')!;
    expect(new Set(c.offerings.map((o) => o.capacityType))).toEqual(new Set(['on-demand']));
  });
});
