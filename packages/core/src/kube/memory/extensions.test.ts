import { describe, expect, it } from 'vitest';
import { invalid, isInvalid, type KubeError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { Pods as TypedPods } from '../resource-types.js';
import type { MemoryClusterPlugin } from './extensions.js';
import { newCluster, podObject, type Widget, Widgets, widget } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

describe('admission hooks', () => {
  it('default fields and reject writes, for the kinds they are registered for', async () => {
    const { cluster } = newCluster();
    const remove = cluster.addAdmissionHook(
      (req) => {
        const w = req.object as Widget;
        if (req.operation === 'DELETE') return;
        w.spec = { color: 'grey', ...w.spec };
        if ((w.spec.size ?? 0) > 10) {
          throw invalid(req.type, w.metadata.name ?? '', [
            { field: 'spec.size', message: 'must be at most 10' },
          ]);
        }
      },
      [Widgets],
    );
    const created = await cluster.create(Widgets, widget('a', { size: 1 }));
    expect(created.spec?.color).toBe('grey');
    const err = await failure(cluster.patch(Widgets, { name: 'a' }, { spec: { size: 11 } }));
    expect(isInvalid(err)).toBe(true);
    expect(err.message).toBe('Widget "a" is invalid: spec.size: must be at most 10');
    await cluster.create(Pods, podObject('unaffected'));
    remove();
    const big = await cluster.patch<Widget>(Widgets, { name: 'a' }, { spec: { size: 11 } });
    expect(big.spec?.size).toBe(11);
  });
});

describe('plug-ins', () => {
  /** A toy binder: the shape a kube-scheduler emulation takes. */
  const binder: MemoryClusterPlugin = {
    name: 'binder',
    start(cluster) {
      const watch = cluster.watch(
        Pods,
        async (e) => {
          if (e.type !== 'ADDED') return;
          const key = {
            name: e.object.metadata.name as string,
            namespace: e.object.metadata.namespace as string,
          };
          await cluster.patch(Pods, key, { spec: { nodeName: 'node-9' } });
        },
        { fieldSelector: 'spec.nodeName=' },
      );
      return () => watch.stop();
    },
  };

  it('react to watch events through the port until stopped', async () => {
    const { cluster } = newCluster();
    const stop = cluster.use(binder);
    await cluster.create(Pods, podObject('p', { nodeName: '' }));
    await cluster.settled();
    const bound = (await cluster.get(Pods, { name: 'p', namespace: 'default' })) as KubeObject & {
      spec: { nodeName?: string };
    };
    expect(bound.spec.nodeName).toBe('node-9');
    stop();
    await cluster.create(Pods, podObject('q', { nodeName: '' }));
    await cluster.settled();
    expect(
      (await cluster.list(Pods, { fieldSelector: 'spec.nodeName=' })).items.map((p) => p.metadata.name),
    ).toEqual(['q']);
  });
});
