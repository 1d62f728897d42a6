import { FakeClock } from '@nodewright/core/clock';
import { isInternalError, isTooManyRequests, MemoryCluster, Namespaces } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { FaultInjectingCluster } from './fault-injecting-cluster.js';

describe('FaultInjectingCluster', () => {
  it('counts calls and fails the next ones, throttling first, then server errors, then passes through', async () => {
    const cluster = new FaultInjectingCluster(new MemoryCluster({ clock: new FakeClock(0) }));
    cluster.throttle(1);
    cluster.serverErrors(1);
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        await cluster.list(Namespaces);
        outcomes.push('ok');
      } catch (err) {
        outcomes.push(isTooManyRequests(err) ? '429' : isInternalError(err) ? '500' : 'other');
      }
    }
    expect(outcomes).toEqual(['429', '500', 'ok']);
    expect(cluster.calls()).toBe(3);
  });

  it('does not let a faulted write reach the cluster', async () => {
    const inner = new MemoryCluster({ clock: new FakeClock(0) });
    const cluster = new FaultInjectingCluster(inner);
    cluster.serverErrors(1);
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } };
    await expect(cluster.create(Namespaces, ns)).rejects.toThrow(/injected fault/);
    expect((await inner.list(Namespaces)).items.map((n) => n.metadata.name)).not.toContain('x');
  });
});
