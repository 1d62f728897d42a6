import { type NodeClaim, nodeClaimKind } from '@nodewright/core/apis';
import { FakeClock } from '@nodewright/core/clock';
import { MemoryCluster, resourceTypeOf } from '@nodewright/core/kube';
import { createLogger } from '@nodewright/core/operator';
import { reconcileContext } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import { type EC2NodeClass, ec2NodeClassKind } from '../apis/index.js';
import { EC2NodeClassFinalizer } from './resource.js';
import { EC2NodeClassTerminationController, NodeClaimWaitMs } from './termination-controller.js';
import { nodeClassFixture } from './testing.js';

const EC2NodeClasses = resourceTypeOf<EC2NodeClass>(ec2NodeClassKind);
const NodeClaims = resourceTypeOf<NodeClaim>(nodeClaimKind);

async function world() {
  const clock = new FakeClock(Date.parse('2026-12-02T12:00:00Z'));
  const cluster = new MemoryCluster({ clock, kinds: [EC2NodeClasses, NodeClaims] });
  const cleaned: string[] = [];
  let failProfile: Error | undefined;
  const controller = new EC2NodeClassTerminationController({
    cluster,
    instanceProfiles: {
      delete: async (nc) => {
        if (failProfile !== undefined) throw failProfile;
        cleaned.push(`profile:${nc.metadata.name}`);
        return 'instance profile prod_1 deleted';
      },
    },
    launchTemplates: {
      deleteFor: async (name) => {
        cleaned.push(`templates:${name}`);
        return ['nodewright.k8s.aws/1'];
      },
    },
  });
  const lines: string[] = [];
  const logger = createLogger({
    destination: { write: (l: string) => void lines.push(l) },
    now: () => clock.now(),
  });
  const context = reconcileContext({ logger });
  await cluster.create(EC2NodeClasses, {
    ...nodeClassFixture(),
    metadata: { name: 'default', finalizers: [EC2NodeClassFinalizer] },
  });
  const claim = (name: string, nodeClass: string) =>
    cluster.create(NodeClaims, {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: nodeClass },
        requirements: [],
      },
    } as unknown as NodeClaim);
  return {
    cluster,
    controller,
    context,
    cleaned,
    lines,
    claim,
    failProfile: (e: Error) => {
      failProfile = e;
    },
  };
}

describe('EC2NodeClassTerminationController', () => {
  it('does nothing while the NodeClass is not being deleted', async () => {
    const w = await world();
    expect(await w.controller.reconcile({ name: 'default' }, w.context)).toBeUndefined();
    expect(w.cleaned).toEqual([]);
    expect((await w.cluster.get(EC2NodeClasses, { name: 'default' })).metadata.finalizers).toEqual([
      EC2NodeClassFinalizer,
    ]);
  });

  it('waits for its NodeClaims, then deletes the instance profile and launch templates and lets go', async () => {
    const w = await world();
    await w.claim('web-1', 'default');
    await w.claim('other-1', 'other');
    await w.cluster.delete(EC2NodeClasses, { name: 'default' });
    expect(await w.controller.reconcile({ name: 'default' }, w.context)).toEqual({
      requeueAfterMs: NodeClaimWaitMs,
    });
    expect(w.cleaned).toEqual([]);
    expect(w.lines.some((l) => l.includes('waiting on NodeClaim termination for web-1'))).toBe(true);

    await w.cluster.delete(NodeClaims, { name: 'web-1' });
    expect(await w.controller.reconcile({ name: 'default' }, w.context)).toBeUndefined();
    expect(w.cleaned).toEqual(['profile:default', 'templates:default']);
    await expect(w.cluster.get(EC2NodeClasses, { name: 'default' })).rejects.toMatchObject({ code: 404 });
    expect(w.lines.some((l) => l.includes('EC2NodeClass cleaned up; finalizer removed'))).toBe(true);
  });

  it('keeps the finalizer when IAM fails', async () => {
    const w = await world();
    w.failProfile(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    await w.cluster.delete(EC2NodeClasses, { name: 'default' });
    await expect(w.controller.reconcile({ name: 'default' }, w.context)).rejects.toThrow('denied');
    expect((await w.cluster.get(EC2NodeClasses, { name: 'default' })).metadata.finalizers).toEqual([
      EC2NodeClassFinalizer,
    ]);
  });

  it('is woken by a deleted NodeClaim of its NodeClass', () => {
    const w = { controller: new EC2NodeClassTerminationController({} as never) };
    const claims = w.controller.watches[1];
    const claim = {
      metadata: { name: 'web-1' },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' } },
    };
    expect(claims?.map({ type: 'DELETED', object: claim } as never, {} as never)).toEqual([{ name: 'gpu' }]);
    expect(claims?.map({ type: 'MODIFIED', object: claim } as never, {} as never)).toEqual([]);
  });
});
