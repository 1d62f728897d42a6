import { FakeClock } from '@nodewright/core/clock';
import { MemoryCluster } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { KWOKNodeClassAnnotations, kwokNodeClassHash } from '../apis/hash.js';
import { KWOKNodeClasses } from '../apis/resource-type.js';
import { KwokNodeClassStatusController } from './nodeclass-status-controller.js';

async function setup(spec: Record<string, unknown>) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const cluster = new MemoryCluster({ clock, kinds: [KWOKNodeClasses] });
  await cluster.create(KWOKNodeClasses, {
    apiVersion: 'karpenter.kwok.sh/v1alpha1',
    kind: 'KWOKNodeClass',
    metadata: { name: 'nc' },
    spec,
  } as never);
  return { clock, cluster, controller: new KwokNodeClassStatusController({ cluster, clock }) };
}

describe('kwoknodeclass.status', () => {
  it('sets Ready=True with observedGeneration and stamps the hash annotation', async () => {
    const { cluster, controller } = await setup({ nodeRegistrationDelay: '10s' });
    await controller.reconcile({ name: 'nc' });
    const nc = await cluster.get(KWOKNodeClasses, { name: 'nc' });
    expect(nc.status?.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 1 }),
    ]);
    expect(nc.metadata.annotations?.[KWOKNodeClassAnnotations.Hash]).toBe(
      kwokNodeClassHash({ spec: { nodeRegistrationDelay: '10s' } }),
    );
  });

  it('writes nothing when already up to date, and keeps the transition time while the status holds', async () => {
    const { clock, cluster, controller } = await setup({});
    await controller.reconcile({ name: 'nc' });
    const first = await cluster.get(KWOKNodeClasses, { name: 'nc' });
    clock.step(60_000);
    await controller.reconcile({ name: 'nc' });
    const second = await cluster.get(KWOKNodeClasses, { name: 'nc' });
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    await cluster.patch(KWOKNodeClasses, { name: 'nc' }, { spec: { nodeRegistrationDelay: '1m' } });
    await controller.reconcile({ name: 'nc' });
    const third = await cluster.get(KWOKNodeClasses, { name: 'nc' });
    expect(third.status?.conditions?.[0]?.lastTransitionTime).toBe(
      first.status?.conditions?.[0]?.lastTransitionTime,
    );
    expect(third.status?.conditions?.[0]?.observedGeneration).toBe(2);
    expect(third.metadata.annotations?.[KWOKNodeClassAnnotations.Hash]).not.toBe(
      first.metadata.annotations?.[KWOKNodeClassAnnotations.Hash],
    );
  });

  it('an invalid spec is Ready=False InvalidSpec naming the field', async () => {
    const { cluster, controller } = await setup({ nodeRegistrationDelay: 'soon' });
    await controller.reconcile({ name: 'nc' });
    const ready = (await cluster.get(KWOKNodeClasses, { name: 'nc' })).status?.conditions?.[0];
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready?.message).toContain('spec.nodeRegistrationDelay');
  });

  it('ignores a NodeClass that is gone', async () => {
    const { controller } = await setup({});
    await expect(controller.reconcile({ name: 'missing' })).resolves.toBeUndefined();
  });
});
