import { describe, expect, it } from 'vitest';
import { decodeManagedFields, encodeManagedFields } from '../managed-fields.js';
import { recordUpdate } from '../server-side-apply.js';
import { ManagedFieldsCodec } from './managed-fields-codec.js';
import { newCluster, type Widget, Widgets, widget } from './test-fixtures.js';

const ctx = (manager: string) => ({
  manager,
  apiVersion: 'v1',
  time: '2026-03-01T12:00:00Z',
  scope: 'all' as const,
});

describe('ManagedFieldsCodec', () => {
  it('encodes and decodes as the plain functions do, handing back what it saw before', () => {
    const codec = new ManagedFieldsCodec();
    const owners = recordUpdate(
      {},
      { spec: { a: 1, m: { k: 'v' } }, metadata: { finalizers: ['x'] } },
      [],
      ctx('one'),
    );
    const entries = codec.encode(owners);
    expect(entries).toEqual(encodeManagedFields(owners));
    expect(Object.isFrozen(entries[0]?.fieldsV1)).toBe(true);
    const decoded = codec.decode(entries);
    expect(decoded).toEqual(decodeManagedFields(entries));
    expect(decoded[0]).toBe(owners[0]);
    expect(codec.encode(decoded)[0]).toBe(entries[0]);
  });

  it("keeps a manager's entry as it was when another manager's write leaves its fields alone", async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 1 }), { fieldManager: 'creator' });
    const first = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { spec: { color: 'red' } },
      { fieldManager: 'painter' },
    );
    const second = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { spec: { color: 'blue' } },
      { fieldManager: 'painter' },
    );
    const creator = (w: Widget) => w.metadata.managedFields?.find((e) => e.manager === 'creator');
    expect(creator(second)).toBe(creator(first));
    expect(second.metadata.managedFields?.find((e) => e.manager === 'painter')?.fieldsV1).toEqual({
      'f:spec': { 'f:color': {} },
    });
    // Taking the creator's field copies its entry instead of changing the shared one.
    const third = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { spec: { size: 2 } },
      { fieldManager: 'painter' },
    );
    expect(creator(first)?.fieldsV1).toEqual({ 'f:spec': { '.': {}, 'f:size': {} } });
    expect(creator(third)?.fieldsV1).toEqual({ 'f:spec': {} });
  });
});
