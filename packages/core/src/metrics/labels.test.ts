import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { aNode } from '../testing/node-builder.js';
import {
  metricLabelFor,
  NodeLabelNames,
  nodeMetricLabels,
  podNodeLabels,
  resourceTypeLabel,
} from './labels.js';
import { ownerSelfLink } from './pod/pod-metrics.js';

describe('metric labels', () => {
  it('names well-known node labels and resources as Karpenter does', () => {
    expect(metricLabelFor(Labels.CapacityType)).toBe('capacity_type');
    expect(metricLabelFor(Labels.Zone)).toBe('zone');
    expect(metricLabelFor(Labels.InstanceType)).toBe('instance_type');
    expect(resourceTypeLabel('ephemeral-storage')).toBe('ephemeral_storage');
    expect(resourceTypeLabel('nvidia.com/gpu')).toBe('nvidia.com/gpu');
    expect([...NodeLabelNames].sort()).toEqual(
      [
        'arch',
        'capacity_type',
        'instance_type',
        'node_name',
        'nodepool',
        'os',
        'region',
        'resource_type',
        'windows_build',
        'zone',
      ].sort(),
    );
  });

  it('fills unset node labels with empty strings, and a pod of an unknown node with N/A', () => {
    const labels = nodeMetricLabels(aNode({ metadata: { name: 'n', labels: { [Labels.Zone]: 'z' } } }));
    expect(labels).toMatchObject({ node_name: 'n', zone: 'z', nodepool: '' });
    expect(podNodeLabels(undefined)).toEqual({
      nodepool: 'N/A',
      zone: 'N/A',
      arch: 'N/A',
      capacity_type: 'N/A',
      instance_type: 'N/A',
    });
  });

  it('links a pod to its first owner', () => {
    const owner = { apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u' };
    expect(ownerSelfLink({ metadata: { name: 'p', namespace: 'ns', ownerReferences: [owner] } })).toBe(
      '/apis/batch/v1/namespaces/ns/jobs/j',
    );
    expect(ownerSelfLink({ metadata: { name: 'p', namespace: 'ns' } })).toBe('');
  });
});
