import { describe, expect, it } from 'vitest';
import { type Pod, podSchema } from '../../apis/kubernetes/index.js';
import { resourceType } from '../resource-type.js';
import { Pods } from '../resource-types.js';
import { newCluster } from './test-fixtures.js';

describe('objects typed by the apis schemas', () => {
  it('round-trip through the cluster with their own type', async () => {
    const { cluster } = newCluster();
    const TypedPods = resourceType<Pod>({
      apiVersion: 'v1',
      kind: 'Pod',
      namespaced: true,
      statusSubresource: true,
    });
    const pod = podSchema.parse({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    const created = await cluster.create(TypedPods, pod);
    expect(created.spec.schedulerName).toBe('default-scheduler');
    expect(created.metadata.uid).toBeDefined();
    const listed = await cluster.list<Pod>(Pods);
    expect(podSchema.parse(listed.items[0]).metadata.name).toBe('web');
    const updated = await cluster.updateStatus(TypedPods, { ...created, status: { phase: 'Running' } });
    expect(updated.status?.phase).toBe('Running');
  });
});
