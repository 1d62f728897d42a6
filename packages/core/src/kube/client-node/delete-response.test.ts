import { describe, expect, it } from 'vitest';
import { resourceType } from '../resource-type.js';
import { Namespaces, Pods } from '../resource-types.js';
import { readDeleteResponse } from './delete-response.js';

const Widgets = resourceType({ apiVersion: 'example.com/v1', kind: 'Widget', namespaced: false });
const deleting = { deletionTimestamp: '2026-03-01T12:00:00Z', deletionGracePeriodSeconds: 0 };

describe('readDeleteResponse', () => {
  it('reads a Status as an immediate deletion, keeping the identity it names', () => {
    const body = { kind: 'Status', status: 'Success', details: { name: 'a', kind: 'widgets', uid: 'u-1' } };
    expect(readDeleteResponse(Widgets, { name: 'a' }, body)).toEqual({
      deleted: true,
      object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a', uid: 'u-1' } },
    });
    expect(readDeleteResponse(Pods, { name: 'p' }, body).object.metadata).toEqual({
      name: 'p',
      namespace: 'default',
      uid: 'u-1',
    });
  });

  it('reads an object held by finalizers as still present', () => {
    const object = { metadata: { name: 'a', ...deleting, finalizers: ['x.io/f'] } };
    expect(readDeleteResponse(Widgets, { name: 'a' }, object)).toEqual({ deleted: false, object });
  });

  it('reads a pod in its grace period as present, and one deleted without grace as gone', () => {
    const graceful = { metadata: { name: 'p', namespace: 'n', ...deleting, deletionGracePeriodSeconds: 30 } };
    expect(readDeleteResponse(Pods, { name: 'p', namespace: 'n' }, graceful).deleted).toBe(false);
    const immediate = { metadata: { name: 'p', namespace: 'n', ...deleting } };
    expect(readDeleteResponse(Pods, { name: 'p', namespace: 'n' }, immediate).deleted).toBe(true);
  });

  it('reads a namespace with spec.finalizers as terminating', () => {
    const ns = { metadata: { name: 'team', ...deleting }, spec: { finalizers: ['kubernetes'] } };
    expect(readDeleteResponse(Namespaces, { name: 'team' }, ns).deleted).toBe(false);
    const emptied = { metadata: { name: 'team', ...deleting }, spec: { finalizers: [] } };
    expect(readDeleteResponse(Namespaces, { name: 'team' }, emptied).deleted).toBe(true);
  });

  it('reads a returned object without a deletion timestamp as gone', () => {
    expect(readDeleteResponse(Widgets, { name: 'a' }, { metadata: { name: 'a' } }).deleted).toBe(true);
  });
});
