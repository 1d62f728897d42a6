import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeClock } from '../../clock/clock.js';
import { NodeClassNotReadyError } from '../../cloudprovider/errors.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import { resourceType } from '../../kube/resource-type.js';
import { NodeClassReader } from './node-class-reader.js';

const schema = z.object({
  apiVersion: z.literal('test.nodewright.dev/v1'),
  kind: z.literal('TestClass'),
  metadata: z.object({ name: z.string(), deletionTimestamp: z.string().optional() }).passthrough(),
  spec: z.object({ size: z.number().default(1) }),
  status: z
    .object({
      conditions: z
        .array(
          z.object({
            type: z.string(),
            status: z.string(),
            reason: z.string().optional(),
            message: z.string().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
type TestClass = z.output<typeof schema>;
const TestClasses = resourceType<TestClass>({
  apiVersion: 'test.nodewright.dev/v1',
  kind: 'TestClass',
  namespaced: false,
  statusSubresource: true,
});

async function reader(objects: Record<string, unknown>[]) {
  const cluster = new MemoryCluster({ clock: new FakeClock(0), kinds: [TestClasses] });
  for (const o of objects) {
    const { status, ...rest } = o;
    await cluster.create(TestClasses, rest as never);
    // The status subresource drops status on create, as the API server does.
    if (status !== undefined) {
      await cluster.patchStatus(TestClasses, { name: (rest.metadata as { name: string }).name }, {
        status,
      } as never);
    }
  }
  return new NodeClassReader<TestClass>(cluster, TestClasses, schema);
}

const aClass = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'test.nodewright.dev/v1',
  kind: 'TestClass',
  metadata: { name },
  spec: {},
  ...extra,
});

describe('NodeClassReader', () => {
  it('finds a NodeClass with the schema defaults applied, and undefined for a missing one', async () => {
    const r = await reader([aClass('a')]);
    expect((await r.find('a'))?.spec.size).toBe(1);
    expect(await r.find('b')).toBeUndefined();
  });

  it('ready() refuses a missing, unready or invalid NodeClass with a message naming it', async () => {
    const r = await reader([
      aClass('unready', {
        status: {
          conditions: [{ type: 'Ready', status: 'False', reason: 'ImagesNotFound', message: 'no image' }],
        },
      }),
      aClass('fresh'),
      aClass('bad', { spec: { size: 'big' } }),
      aClass('ok', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    ]);
    await expect(r.ready('none')).rejects.toThrow(new NodeClassNotReadyError('TestClass none not found'));
    await expect(r.ready('unready')).rejects.toThrow(
      'TestClass unready is not Ready (ImagesNotFound: no image)',
    );
    await expect(r.ready('fresh')).rejects.toThrow('TestClass fresh has no Ready condition yet');
    await expect(r.ready('bad')).rejects.toThrow(/TestClass bad is invalid/);
    expect((await r.ready('ok')).metadata.name).toBe('ok');
  });
});
