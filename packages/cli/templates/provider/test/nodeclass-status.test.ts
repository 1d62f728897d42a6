import { FakeClock } from '@nodewright/core/clock';
import { MemoryCluster } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { NodeClassApiVersion, NodeClasses, NodeClassKindName } from '../src/apis/nodeclass.js';
import { NodeClassStatusController, readyConditionFor } from '../src/controllers/nodeclass-status.js';

describe('the NodeClass status controller', () => {
  it('marks a valid NodeClass Ready, once: a second pass writes nothing', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const cluster = new MemoryCluster({ clock, kinds: [NodeClasses] });
    await cluster.create(NodeClasses, {
      apiVersion: NodeClassApiVersion,
      kind: NodeClassKindName,
      metadata: { name: 'default' },
      spec: { image: 'node-image-1' },
    });
    const controller = new NodeClassStatusController({ cluster, clock });
    await controller.reconcile({ name: 'default' });
    const ready = await cluster.get(NodeClasses, { name: 'default' });
    expect(ready.status?.conditions).toMatchObject([{ type: 'Ready', status: 'True', reason: 'Ready' }]);
    await controller.reconcile({ name: 'default' });
    const again = await cluster.get(NodeClasses, { name: 'default' });
    expect(again.metadata.resourceVersion).toBe(ready.metadata.resourceVersion);
  });

  it('says which field makes a NodeClass not Ready', () => {
    const invalid = {
      apiVersion: NodeClassApiVersion,
      kind: NodeClassKindName,
      metadata: { name: 'x' },
      spec: { image: '' },
    };
    expect(readyConditionFor(invalid)).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(readyConditionFor(invalid).message).toMatch(/^spec\.image: /);
  });

  it('ignores a NodeClass that is gone', async () => {
    const clock = new FakeClock(0);
    const cluster = new MemoryCluster({ clock, kinds: [NodeClasses] });
    await expect(
      new NodeClassStatusController({ cluster, clock }).reconcile({ name: 'gone' }),
    ).resolves.toBeUndefined();
  });
});
