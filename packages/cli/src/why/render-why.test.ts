import { describe, expect, it } from 'vitest';
import { renderWhyNodeText, renderWhyPodText } from './render-why.js';
import type { WhyNodeReport } from './why-node.js';
import type { WhyPodReport } from './why-pod.js';

const pending: WhyPodReport = {
  pod: 'shop/web-1',
  verdict: 'unschedulable',
  summary: 'unschedulable: all 2 usable NodePools rule it out',
  nodePools: [
    {
      nodePool: 'default',
      verdict: 'ruled-out',
      reason: 'requires topology.kubernetes.io/zone In [z], NodePool allows In [a]',
    },
    { nodePool: 'gpu-spot', verdict: 'ruled-out', reason: 'taint gpu=true:NoSchedule not tolerated' },
    { nodePool: 'old', verdict: 'not-used', reason: 'it is not Ready (NodeClassNotReady)' },
  ],
  existingNodes: 'node-a: not enough cpu',
  other: ['no NodePool is available to launch a node'],
  cheapestFit: { instanceType: 'm5.large', zone: 'z', capacityType: 'spot', pricePerHour: 0.0351 },
  notes: ['no --catalog given: using the aws catalog'],
};

describe('renderWhyPodText', () => {
  it('puts the verdict first, then a NodePool table aligned on the longest name, then the cheapest fit and notes', () => {
    expect(renderWhyPodText(pending)).toBe(
      [
        'Pod shop/web-1: unschedulable: all 2 usable NodePools rule it out',
        '',
        'NODEPOOL  VERDICT     REASON',
        'default   ruled out   requires topology.kubernetes.io/zone In [z], NodePool allows In [a]',
        'gpu-spot  ruled out   taint gpu=true:NoSchedule not tolerated',
        'old       not used    it is not Ready (NodeClassNotReady)',
        '',
        'Existing nodes: node-a: not enough cpu',
        'Also: no NodePool is available to launch a node',
        '',
        'Cheapest fit: m5.large in z (spot) at $0.0351/h, if a NodePool allowed it',
        '',
        'Note: no --catalog given: using the aws catalog',
        '',
      ].join('\n'),
    );
  });

  it('says why nothing would fit, and shows the NodeClaim a placed pod would get', () => {
    const none = renderWhyPodText({
      ...pending,
      cheapestFit: null,
      cheapestFitReason: 'no instance type has 900 cpu',
    });
    expect(none).toContain(
      'Cheapest fit: none: no instance type of the catalogs holds it, whatever the NodePool (no instance type has 900 cpu)\n',
    );
    const placed = renderWhyPodText({
      ...pending,
      verdict: 'would-launch',
      nodePools: [],
      other: [],
      notes: [],
      nodeClaim: {
        nodePool: 'default',
        instanceTypes: ['a', 'b', 'c', 'd', 'e', 'f'],
        requirements: [],
        pods: ['shop/web-1'],
        requests: { cpu: '1' },
        price: 0.5,
      },
    });
    expect(placed).toContain(
      'NodeClaim from NodePool default: $0.5000/h, 6 instance types (a, b, c, d, e, ...)\n',
    );
    expect(placed).not.toContain('NODEPOOL');
  });

  it('shows no cheapest fit for a bound pod', () => {
    const text = renderWhyPodText({
      ...pending,
      verdict: 'bound',
      summary: 'not pending: it is bound to node n (phase Running)',
      nodePools: [],
      other: [],
      notes: [],
      cheapestFit: null,
    });
    expect(text.startsWith('Pod shop/web-1: not pending: it is bound to node n (phase Running)\n')).toBe(
      true,
    );
    expect(text).not.toContain('Cheapest fit');
  });
});

const blocked: WhyNodeReport = {
  node: 'node-a',
  nodePool: 'default',
  managed: true,
  summary: 'not disrupted: consolidateAfter 10m has not passed',
  disruption: {
    node: 'node-a',
    nodePool: 'default',
    disruptable: false,
    blockedBy: 'consolidateAfter 10m has not passed',
    reasons: [],
    drifted: 'NodePoolDrifted',
    pricePerHour: 0.1,
    note: 'not consolidated: no instance type that fits cpu=1 is cheaper than $0.1/h',
  },
  budgets: [
    { reason: 'Empty', nodes: 10, allowed: 1 },
    { reason: 'Drifted', nodes: 10, allowed: null },
  ],
  consolidation: { policy: 'WhenEmptyOrUnderutilized', consolidateAfter: '10m' },
  now: '2026-01-01T00:00:00Z',
  notes: ['a note'],
};

describe('renderWhyNodeText', () => {
  it('gives the verdict, then one fact per line with the numbers', () => {
    expect(renderWhyNodeText(blocked)).toBe(
      [
        'Node node-a (NodePool default): not disrupted: consolidateAfter 10m has not passed',
        '  disruptable:   no',
        '  blocked by:    consolidateAfter 10m has not passed',
        '  tried:         not consolidated: no instance type that fits cpu=1 is cheaper than $0.1/h',
        '  drifted:       NodePoolDrifted',
        '  price:         $0.1000/h',
        '  consolidation: WhenEmptyOrUnderutilized, consolidateAfter 10m',
        '  budget:        Empty: 1 more of 10 nodes may be disrupted now',
        '  budget:        Drifted: unlimited of 10 nodes may be disrupted now',
        '  at:            2026-01-01T00:00:00Z',
        'Note: a note',
        '',
      ].join('\n'),
    );
  });

  it('shows the command taking the node, and an unmanaged node without NodePool facts', () => {
    const text = renderWhyNodeText({
      ...blocked,
      disruption: { ...blocked.disruption!, disruptable: true, reasons: ['Underutilized'] },
      command: {
        method: 'single-node-consolidation',
        reason: 'Underutilized',
        candidates: ['node-a'],
        replacements: [
          {
            nodePool: 'default',
            instanceTypes: ['small'],
            requirements: [],
            pods: [],
            requests: {},
            price: 0.02,
          },
        ],
        savingsPerHour: 0.08,
        moves: [],
      },
    });
    expect(text).toContain('  disruptable:   yes, for Underutilized\n');
    expect(text).toContain(
      '  command:       single-node-consolidation (Underutilized) of node-a, saves $0.0800/h\n',
    );
    expect(text).toContain('  replacement 0: NodePool default, $0.0200/h, small\n');
    const unmanaged = renderWhyNodeText({
      node: 'n',
      nodePool: null,
      managed: false,
      summary: 'not managed',
      budgets: [],
      now: '2026-01-01T00:00:00Z',
      notes: [],
    });
    expect(unmanaged).toBe('Node n: not managed\n  at:            2026-01-01T00:00:00Z\n');
  });
});
