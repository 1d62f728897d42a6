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
        'managed',
        'node_name',
        'nodepool',
        'os',
        'phase',
        'region',
        'resource_type',
        'windows_build',
        'zone',
      ].sort(),
    );
  });

  it('fills unset node labels with empty strings, and a pod of an unknown node with empty ones', () => {
    const labels = nodeMetricLabels(aNode({ metadata: { name: 'n', labels: { [Labels.Zone]: 'z' } } }));
    expect(labels).toMatchObject({ node_name: 'n', zone: 'z', nodepool: '', phase: '', managed: 'false' });
    expect(podNodeLabels(undefined)).toEqual({
      nodepool: '',
      zone: '',
      arch: '',
      capacity_type: '',
      instance_type: '',
      managed: 'false',
    });
  });

  it('calls a node of a NodePool, and its pods, managed', () => {
    const node = aNode({ metadata: { name: 'n', labels: { [Labels.NodePool]: 'default' } } });
    expect(nodeMetricLabels(node).managed).toBe('true');
    expect(podNodeLabels(node).managed).toBe('true');
    expect(nodeMetricLabels({ ...node, status: { phase: 'Running' } }).phase).toBe('Running');
  });

  it('links a pod to its first owner', () => {
    const owner = { apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u' };
    expect(ownerSelfLink({ metadata: { name: 'p', namespace: 'ns', ownerReferences: [owner] } })).toBe(
      '/apis/batch/v1/namespaces/ns/jobs/j',
    );
    expect(ownerSelfLink({ metadata: { name: 'p', namespace: 'ns' } })).toBe('');
  });
});
