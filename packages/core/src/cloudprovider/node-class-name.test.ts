import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { isNodeClassNotReady } from './errors.js';
import { nodeClassNameOf } from './node-class-name.js';

const kind = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' };
const claim = (group: string, k: string): NodeClaim =>
  ({
    metadata: { name: 'c-1' },
    spec: { nodeClassRef: { group, kind: k, name: 'default' } },
  }) as unknown as NodeClaim;

describe('nodeClassNameOf', () => {
  it('answers the name of a nodeClassRef of the provider kind', () => {
    expect(nodeClassNameOf(claim('karpenter.k8s.aws', 'EC2NodeClass'), kind, 'aws')).toBe('default');
  });

  it('refuses another kind or group with NodeClassNotReady naming what was referenced', () => {
    for (const c of [claim('karpenter.k8s.aws', 'Other'), claim('example.com', 'EC2NodeClass')]) {
      let error: unknown;
      try {
        nodeClassNameOf(c, kind, 'aws');
      } catch (e) {
        error = e;
      }
      expect(isNodeClassNotReady(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^NodeClaim c-1 references \S+ default; the aws provider resolves only EC2NodeClass$/,
      );
    }
  });
});
