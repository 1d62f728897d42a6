import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { nodeSchema } from './node.js';

describe('nodeSchema', () => {
  it('parses labels, taints, providerID, capacity, allocatable and conditions', () => {
    const node = nodeSchema.parse({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'ip-10-0-0-1',
        labels: { 'karpenter.sh/nodepool': 'default', 'topology.kubernetes.io/zone': 'us-west-2a' },
        creationTimestamp: '2024-05-01T12:00:00Z',
      },
      spec: {
        providerID: 'aws:///us-west-2a/i-0123',
        unschedulable: false,
        taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }],
      },
      status: {
        capacity: { cpu: 4, memory: '16Gi', pods: 110 },
        allocatable: { cpu: '3920m', memory: '15Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    expect(node.spec.taints?.[0]?.effect).toBe('NoSchedule');
    expect(node.status?.capacity).toEqual({ cpu: '4', memory: '16Gi', pods: '110' });
    expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');
  });

  it('treats an absent spec as empty and has no namespace default', () => {
    const node = nodeSchema.parse({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } });
    expect(node.spec).toEqual({});
    expect(node.metadata).not.toHaveProperty('namespace');
  });

  it('reports bad taints and quantities at their paths', () => {
    const result = nodeSchema.safeParse({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      spec: { taints: [{ key: 'a', effect: 'Evict' }], unschedulable: 'yes' },
      status: { allocatable: { cpu: 'four' }, conditions: [{ type: 'Ready', status: 'Yes' }] },
    });
    expect(fieldErrors(result.error?.issues ?? []).map((e) => e.path)).toEqual([
      'spec.unschedulable',
      'spec.taints[0].effect',
      'status.allocatable.cpu',
      'status.conditions[0].status',
    ]);
  });
});
