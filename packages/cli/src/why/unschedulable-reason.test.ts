import { describe, expect, it } from 'vitest';
import { splitUnschedulableReason } from './unschedulable-reason.js';

describe('splitUnschedulableReason', () => {
  it('takes the solver reason apart per NodePool, keeping limits, existing nodes and the rest', () => {
    const reason = [
      'NodePool gpu: taint nvidia.com/gpu=true:NoSchedule not tolerated',
      'exceeds NodePool default limits: cpu 96 of 100 used, 8 more needed',
      'NodePool spot: no instance type has 300 cpu (largest offers 256 after DaemonSet overhead), no instance type has 2Ti memory (largest offers 1Ti)',
      'existing nodes: 3 nodes: not enough cpu, node-a: taint not tolerated',
    ].join('; ');
    expect(splitUnschedulableReason(reason)).toEqual({
      nodePools: [
        { nodePool: 'gpu', reason: 'taint nvidia.com/gpu=true:NoSchedule not tolerated' },
        { nodePool: 'default', reason: 'exceeds its limits: cpu 96 of 100 used, 8 more needed' },
        {
          nodePool: 'spot',
          reason:
            'no instance type has 300 cpu (largest offers 256 after DaemonSet overhead), no instance type has 2Ti memory (largest offers 1Ti)',
        },
      ],
      existingNodes: '3 nodes: not enough cpu, node-a: taint not tolerated',
      other: [],
    });
  });

  it('keeps a reason of no known form whole, even with a semicolon in it', () => {
    expect(splitUnschedulableReason('scheduling deadline exceeded; retried next batch')).toEqual({
      nodePools: [],
      other: ['scheduling deadline exceeded; retried next batch'],
    });
    expect(
      splitUnschedulableReason(
        'no NodePool is available to launch a node; existing nodes: n: not enough cpu',
      ),
    ).toEqual({
      nodePools: [],
      existingNodes: 'n: not enough cpu',
      other: ['no NodePool is available to launch a node'],
    });
  });

  it('keeps a reason of no known form whole', () => {
    expect(splitUnschedulableReason('no NodePool is available to launch a node')).toEqual({
      nodePools: [],
      other: ['no NodePool is available to launch a node'],
    });
  });
});
