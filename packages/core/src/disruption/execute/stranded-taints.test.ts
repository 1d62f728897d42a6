import { describe, expect, it } from 'vitest';
import { Taints } from '../../apis/labels.js';
import { aNode } from '../../testing/node-builder.js';
import { aNodeClaim } from '../../testing/nodeclaim-builder.js';
import { strandedDisruptionTaints } from './stranded-taints.js';

const tainted = (name: string, extra: Record<string, unknown> = {}) =>
  aNode({
    metadata: { name, ...extra },
    spec: { providerID: `fake://${name}`, taints: [{ ...Taints.Disrupted }] },
  });
const claimOf = (node: string, extra: Record<string, unknown> = {}) =>
  aNodeClaim({
    metadata: { name: `claim-${node}`, ...extra },
    status: { nodeName: node, providerID: `fake://${node}` },
  });
const none = () => false;

describe('strandedDisruptionTaints', () => {
  it('names every tainted node no command holds, and only tainted ones', () => {
    const nodes = [tainted('b'), aNode({ metadata: { name: 'clean' } }), tainted('a')];
    expect(strandedDisruptionTaints({ nodes, nodeClaims: [], held: none, marked: none })).toEqual(['a', 'b']);
  });

  it('leaves the in-flight command’s candidates and marked nodes or claims alone', () => {
    const nodes = [tainted('held'), tainted('marked'), tainted('claim-marked'), tainted('free')];
    const nodeClaims = [claimOf('claim-marked')];
    const held = (n: string) => n === 'held';
    const marked = (n: string) => n === 'marked' || n === 'claim-claim-marked';
    expect(strandedDisruptionTaints({ nodes, nodeClaims, held, marked })).toEqual(['free']);
  });

  it('keeps the taint on nodes draining after their command deleted them', () => {
    const at = '2026-01-01T00:00:00Z';
    const nodes = [
      tainted('node-deleting', { deletionTimestamp: at, finalizers: ['x'] }),
      tainted('claim-deleting'),
    ];
    // Paired by providerID: the claim has not recorded the node's name.
    const deleting = aNodeClaim({
      metadata: { name: 'c', deletionTimestamp: at, finalizers: ['karpenter.sh/termination'] },
      status: { providerID: 'fake://claim-deleting' },
    });
    expect(strandedDisruptionTaints({ nodes, nodeClaims: [deleting], held: none, marked: none })).toEqual([]);
  });
});
