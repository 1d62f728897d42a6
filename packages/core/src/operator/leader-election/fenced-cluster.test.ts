import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import { NodePools } from '../../kube/resource-types.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { FencedWriteError, fencedCluster } from './fenced-cluster.js';

describe('fencedCluster', () => {
  it('passes reads and watches always, and writes only while the fence names no reason', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0), kinds: [NodePools] });
    let reason: string | undefined;
    const port = fencedCluster(cluster, () => reason);
    await port.create(NodePools, aNodePool({ metadata: { name: 'p' } }));
    reason = 'a no longer leads';
    await expect(port.patch(NodePools, { name: 'p' }, { metadata: { labels: { x: 'y' } } })).rejects.toThrow(
      new FencedWriteError('write refused (patch): a no longer leads'),
    );
    await expect(port.delete(NodePools, { name: 'p' })).rejects.toBeInstanceOf(FencedWriteError);
    expect((await port.get(NodePools, { name: 'p' })).metadata.labels?.x).toBeUndefined();
    expect((await port.list(NodePools)).items).toHaveLength(1);
    reason = undefined;
    await port.delete(NodePools, { name: 'p' });
    expect((await cluster.list(NodePools)).items).toHaveLength(0);
  });
});
