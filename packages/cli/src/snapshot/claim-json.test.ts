import { type NewClaim, Requirements } from '@nodewright/core/scheduling';
import { aPod, fakeInstanceTypes } from '@nodewright/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { nodeClaimJson, nodeClaimsJson } from './claim-json.js';

function claim(name: string, requirements: Requirements, instanceTypes: NewClaim['instanceTypes']): NewClaim {
  return {
    nodePool: 'default',
    instanceTypes,
    requirements,
    pods: [aPod({ metadata: { name, namespace: 'default' } })],
    requests: new Map(),
    price: 0.1,
  };
}

describe('nodeClaimsJson', () => {
  const types = fakeInstanceTypes().slice(0, 3);
  const shared = Requirements.fromNodeSelectorRequirements([
    { key: 'node.kubernetes.io/instance-type', operator: 'In', values: types.map((t) => t.name).reverse() },
  ]);
  const other = Requirements.fromNodeSelectorRequirements([
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
  ]);

  it('gives each claim what nodeClaimJson gives it alone', () => {
    const claims = [claim('a', shared, types), claim('b', other, types.slice(1)), claim('c', shared, types)];
    expect(nodeClaimsJson(claims)).toEqual(claims.map(nodeClaimJson));
    expect(nodeClaimsJson(claims)[0]!.requirements).toEqual([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: types.map((t) => t.name).sort() },
    ]);
  });

  it('converts requirements and type lists that claims share once', () => {
    const convert = vi.spyOn(shared, 'toNodeSelectorRequirements');
    const out = nodeClaimsJson([
      claim('a', shared, types),
      claim('b', shared, types),
      claim('c', shared, types),
    ]);
    expect(convert).toHaveBeenCalledTimes(1);
    expect(out.map((c) => c.pods)).toEqual([['default/a'], ['default/b'], ['default/c']]);
    expect(out[1]!.instanceTypes).toEqual(types.map((t) => t.name));
  });
});
