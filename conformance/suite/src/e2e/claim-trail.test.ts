import { describe, expect, it } from 'vitest';
import { type ControllerLog, claimTrail, formatClaimTrail } from './claim-trail.js';

const at = (second: number) => `2026-12-03T04:43:${String(second).padStart(2, '0')}.000Z`;

/** A failover as the two controllers log it: the killed leader, then the standby. */
const leader: ControllerLog = {
  identity: 'e2e-a',
  entries: [
    { time: at(0), message: 'became leader', identity: 'e2e-a' },
    {
      time: at(1),
      controller: 'provisioning.provisioner',
      NodeClaim: { name: 'e2e-failover-aaaaa' },
      NodePool: { name: 'e2e-failover' },
      'instance-types': 'm5.large',
      message: 'created nodeclaim',
    },
    {
      time: at(1),
      NodeClaim: { name: 'e2e-main-zzzzz' },
      NodePool: { name: 'e2e-main' },
      message: 'created nodeclaim',
    },
    {
      time: at(2),
      NodeClaim: { name: 'e2e-failover-aaaaa' },
      'provider-id': 'aws:///us-east-1a/i-1',
      'instance-type': 'm5.large',
      zone: 'us-east-1a',
      message: 'launched nodeclaim',
    },
  ],
};
const standby: ControllerLog = {
  identity: 'e2e-b',
  entries: [
    { time: at(3), message: 'became leader', identity: 'e2e-b' },
    {
      time: at(4),
      NodeClaim: { name: 'e2e-failover-aaaaa' },
      Node: { name: 'ip-10-0-0-1' },
      message: 'registered nodeclaim',
    },
    {
      time: at(5),
      NodeClaim: { name: 'e2e-failover-bbbbb' },
      err: { type: 'Error', message: 'InsufficientInstanceCapacity', stack: '...' },
      message: 'failed launching nodeclaim',
    },
    {
      time: at(6),
      method: 'emptiness',
      reason: 'Empty',
      candidates: ['ip-10-0-0-1'],
      savingsPerHour: 0.096,
      message: 'disruption command decided; validating',
    },
    {
      time: at(7),
      method: 'emptiness',
      candidates: ['ip-10-0-0-9'],
      message: 'disrupted nodes',
    },
    {
      time: at(8),
      method: 'single-node-consolidation',
      candidates: ['ip-10-0-0-7'],
      replacements: ['e2e-failover-ccccc'],
      why: 'replacements did not initialize in time',
      message: 'disruption command abandoned',
    },
    { time: at(9), Node: { name: 'ip-10-0-0-1' }, message: 'deleted node' },
    {
      time: at(10),
      NodeClaim: { name: 'e2e-failover-aaaaa' },
      'provider-id': 'aws:///us-east-1a/i-1',
      message: 'garbage collecting nodeclaim with no instance',
    },
    { time: at(11), NodeClaim: { name: 'e2e-main-zzzzz' }, message: 'deleted nodeclaim' },
    { time: at(12), NodeClaim: { name: 'e2e-failover-aaaaa' }, message: 'initialized nodeclaim' },
  ],
};

describe('claimTrail', () => {
  it("merges both controllers' lines about the pool's claims and Nodes in time order, one line each", () => {
    expect(
      claimTrail([standby, leader], { nodePool: 'e2e-failover', nodeClaims: ['e2e-failover-bbbbb'] }),
    ).toEqual([
      '2026-12-03T04:43:01.000Z e2e-a created nodeclaim NodeClaim=e2e-failover-aaaaa',
      '2026-12-03T04:43:02.000Z e2e-a launched nodeclaim NodeClaim=e2e-failover-aaaaa provider-id=aws:///us-east-1a/i-1 instance-type=m5.large',
      '2026-12-03T04:43:04.000Z e2e-b registered nodeclaim NodeClaim=e2e-failover-aaaaa Node=ip-10-0-0-1',
      '2026-12-03T04:43:05.000Z e2e-b failed launching nodeclaim NodeClaim=e2e-failover-bbbbb err=InsufficientInstanceCapacity',
      '2026-12-03T04:43:06.000Z e2e-b disruption command decided; validating method=emptiness reason=Empty candidates=ip-10-0-0-1',
      '2026-12-03T04:43:09.000Z e2e-b deleted node Node=ip-10-0-0-1',
      '2026-12-03T04:43:10.000Z e2e-b garbage collecting nodeclaim with no instance NodeClaim=e2e-failover-aaaaa provider-id=aws:///us-east-1a/i-1',
    ]);
  });

  it('takes Nodes and claims seen in the cluster: a disruption of an unpaired Node, a rolled-back replacement', () => {
    const lines = claimTrail([standby], {
      nodePool: 'e2e-failover',
      nodes: ['ip-10-0-0-9'],
      nodeClaims: ['e2e-failover-ccccc'],
    });
    expect(lines).toContain(
      '2026-12-03T04:43:07.000Z e2e-b disrupted nodes method=emptiness candidates=ip-10-0-0-9',
    );
    expect(lines).toContain(
      '2026-12-03T04:43:08.000Z e2e-b disruption command abandoned method=single-node-consolidation candidates=ip-10-0-0-7 replacements=e2e-failover-ccccc why=replacements did not initialize in time',
    );
  });

  it('leaves out other pools, leadership lines and messages outside the trail', () => {
    const lines = claimTrail([leader, standby], { nodePool: 'e2e-failover' }).join('\n');
    expect(lines).not.toContain('e2e-main');
    expect(lines).not.toContain('became leader');
    expect(lines).not.toContain('initialized nodeclaim');
  });
});

describe('formatClaimTrail', () => {
  it('heads the lines with the pool and controllers, keeping the last `limit`', () => {
    const text = formatClaimTrail([leader, standby], { nodePool: 'e2e-failover' }, 2);
    expect(text.split('\n')).toEqual([
      'log lines about NodePool e2e-failover from e2e-a, e2e-b (first 4 left out):',
      '  2026-12-03T04:43:09.000Z e2e-b deleted node Node=ip-10-0-0-1',
      '  2026-12-03T04:43:10.000Z e2e-b garbage collecting nodeclaim with no instance NodeClaim=e2e-failover-aaaaa provider-id=aws:///us-east-1a/i-1',
    ]);
  });

  it('says when the logs hold nothing about the pool', () => {
    expect(formatClaimTrail([leader], { nodePool: 'e2e-hold' })).toBe(
      'no log lines about NodePool e2e-hold from e2e-a',
    );
  });
});
