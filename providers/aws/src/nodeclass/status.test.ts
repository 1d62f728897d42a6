import { describe, expect, it } from 'vitest';
import type { NodeClassFacts } from './facts.js';
import { isNodeClassReady, nodeClassStatus } from './status.js';
import { nodeClassFixture } from './testing.js';

const T0 = Date.parse('2026-12-02T12:00:00Z');
const facts: NodeClassFacts = {
  subnets: [{ id: 'subnet-a', zone: 'us-west-2a', zoneID: 'usw2-az1' }],
  securityGroups: [{ id: 'sg-1', name: 'nodes' }],
  amis: [
    {
      id: 'ami-1',
      name: 'img',
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
    },
  ],
  instanceProfile: 'prod_1',
  problems: {},
};

describe('nodeClassStatus', () => {
  it('lists what resolved and is Ready when every check passes', () => {
    const nc = { ...nodeClassFixture(), metadata: { name: 'default', generation: 3 } };
    const status = nodeClassStatus(nc, facts, T0);
    expect(status.subnets).toEqual([{ id: 'subnet-a', zone: 'us-west-2a', zoneID: 'usw2-az1' }]);
    expect(status.securityGroups).toEqual([{ id: 'sg-1', name: 'nodes' }]);
    expect(status.amis).toEqual([
      {
        id: 'ami-1',
        name: 'img',
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      },
    ]);
    expect(status.instanceProfile).toBe('prod_1');
    expect(
      status.conditions?.map((c) => [c.type, c.status, c.observedGeneration, c.lastTransitionTime]),
    ).toEqual([
      ['SubnetsReady', 'True', 3, '2026-12-02T12:00:00Z'],
      ['SecurityGroupsReady', 'True', 3, '2026-12-02T12:00:00Z'],
      ['AMIsReady', 'True', 3, '2026-12-02T12:00:00Z'],
      ['InstanceProfileReady', 'True', 3, '2026-12-02T12:00:00Z'],
      ['ValidationSucceeded', 'True', 3, '2026-12-02T12:00:00Z'],
      ['Ready', 'True', 3, '2026-12-02T12:00:00Z'],
    ]);
    expect(isNodeClassReady({ status })).toBe(true);
  });

  it('is not Ready when a check fails, saying which and why', () => {
    const status = nodeClassStatus(
      nodeClassFixture(),
      { ...facts, amis: [], problems: { amis: 'no AMIs matched amiSelectorTerms (id ami-x)' } },
      T0,
    );
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'NotReady',
      message: 'AMIsReady=False: no AMIs matched amiSelectorTerms (id ami-x)',
    });
    expect(status.conditions?.find((c) => c.type === 'AMIsReady')).toMatchObject({
      status: 'False',
      reason: 'AMINotFound',
    });
    expect(isNodeClassReady({ status })).toBe(false);
  });

  it('keeps lastTransitionTime while a condition holds, and is the same for the same inputs', () => {
    const first = nodeClassStatus(nodeClassFixture(), facts, T0);
    const nc = { ...nodeClassFixture(), status: first };
    const later = nodeClassStatus(nc, facts, T0 + 60_000);
    expect(later).toEqual(first);
    const broken = nodeClassStatus(nc, { ...facts, subnets: [], problems: { subnets: 'none' } }, T0 + 60_000);
    expect(broken.conditions?.find((c) => c.type === 'SubnetsReady')?.lastTransitionTime).toBe(
      '2026-12-02T12:01:00Z',
    );
    expect(broken.conditions?.find((c) => c.type === 'AMIsReady')?.lastTransitionTime).toBe(
      '2026-12-02T12:00:00Z',
    );
  });

  it('names the role a created instance profile holds', () => {
    const status = nodeClassStatus(
      nodeClassFixture(),
      { ...facts, instanceProfileDerivedFromRole: 'NodeRole' },
      T0,
    );
    expect(status.conditions?.find((c) => c.type === 'InstanceProfileReady')?.message).toBe(
      'instance profile prod_1 holds role NodeRole',
    );
  });
});
