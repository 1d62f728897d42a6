import { describe, expect, it } from 'vitest';
import type { KubeObject, UntypedObject } from './object.js';
import { withoutManagedFields } from './without-managed-fields.js';

describe('withoutManagedFields', () => {
  it('drops metadata.managedFields from a copy and leaves the object as it was', () => {
    const pod: UntypedObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        labels: { app: 'a' },
        managedFields: [{ manager: 'kubelet', operation: 'Update', fieldsV1: { 'f:status': {} } }],
      },
      spec: { nodeName: 'n' },
    };
    const stripped = withoutManagedFields(pod);
    expect(stripped).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { app: 'a' } },
      spec: { nodeName: 'n' },
    });
    expect('managedFields' in stripped.metadata).toBe(false);
    expect(pod.metadata.managedFields).toHaveLength(1);
  });

  it('returns an object without managedFields as it is', () => {
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } };
    expect(withoutManagedFields(node)).toBe(node);
  });
});
