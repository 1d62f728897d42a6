import { describe, expect, it } from 'vitest';
import { deploymentAvailable, describePods } from './deployment-status.js';

describe('deploymentAvailable', () => {
  const available = { type: 'Available', status: 'True' };

  it('is true when the current generation is Available with a replica', () => {
    expect(
      deploymentAvailable({
        metadata: { generation: 2 },
        status: { observedGeneration: 2, availableReplicas: 1, conditions: [available] },
      }),
    ).toBe(true);
  });

  it('is false while the status describes an older generation', () => {
    expect(
      deploymentAvailable({
        metadata: { generation: 3 },
        status: { observedGeneration: 2, availableReplicas: 1, conditions: [available] },
      }),
    ).toBe(false);
  });

  it('is false without the Available condition, with it False, or with no available replica', () => {
    expect(deploymentAvailable({})).toBe(false);
    expect(deploymentAvailable({ status: { observedGeneration: 1, availableReplicas: 1 } })).toBe(false);
    expect(
      deploymentAvailable({
        status: {
          observedGeneration: 1,
          availableReplicas: 0,
          conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }],
        },
      }),
    ).toBe(false);
    expect(
      deploymentAvailable({
        status: { observedGeneration: 1, availableReplicas: 0, conditions: [available] },
      }),
    ).toBe(false);
  });
});

describe('describePods', () => {
  it('says when there is no pod yet', () => {
    expect(describePods([])).toBe('no pods yet');
  });

  it('explains an unscheduled pod with the scheduler message', () => {
    expect(
      describePods([
        {
          metadata: { name: 'kwok-1' },
          status: {
            phase: 'Pending',
            conditions: [
              {
                type: 'PodScheduled',
                status: 'False',
                reason: 'Unschedulable',
                message: '0/1 nodes are available: 1 node(s) had untolerated taint',
              },
            ],
          },
        },
      ]),
    ).toBe('kwok-1: not scheduled (Unschedulable: 0/1 nodes are available: 1 node(s) had untolerated taint)');
  });

  it('reports image pulls, crashes and readiness per container', () => {
    const line = describePods([
      {
        metadata: { name: 'a' },
        status: {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'kwok',
              state: { waiting: { reason: 'ErrImagePull', message: 'dial tcp: i/o timeout' } },
            },
          ],
        },
      },
      {
        metadata: { name: 'b' },
        status: {
          phase: 'Running',
          containerStatuses: [
            { name: 'kwok', restartCount: 3, state: { terminated: { reason: 'Error', exitCode: 1 } } },
          ],
        },
      },
      {
        metadata: { name: 'c' },
        status: { phase: 'Running', containerStatuses: [{ name: 'kwok', ready: false }] },
      },
    ]);
    expect(line).toBe(
      'a: Pending; kwok waiting: ErrImagePull (dial tcp: i/o timeout) | ' +
        'b: Running; kwok terminated: Error exit 1, 3 restarts | ' +
        'c: Running; kwok running, not ready',
    );
  });
});
