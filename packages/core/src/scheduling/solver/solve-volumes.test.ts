import { describe, expect, it } from 'vitest';
import { persistentVolumeSchema } from '../../apis/kubernetes/persistent-volume.js';
import { persistentVolumeClaimSchema } from '../../apis/kubernetes/persistent-volume-claim.js';
import { storageClassSchema } from '../../apis/kubernetes/storage-class.js';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import { nodePool, pod, solverInput, summarize } from './testing/index.js';
import type { SolverInput } from './types.js';

const ZONE = 'topology.kubernetes.io/zone';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const pvc = (name: string, spec: Record<string, unknown>) =>
  persistentVolumeClaimSchema.parse({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec,
  });
const pv = (name: string, zones: string[], extra: Record<string, unknown> = {}) =>
  persistentVolumeSchema.parse({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: zones }] }],
        },
      },
      ...extra,
    },
  });
const sc = (name: string, zones?: string[]) =>
  storageClassSchema.parse({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'ebs.csi.aws.com',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...(zones === undefined
      ? {}
      : { allowedTopologies: [{ matchLabelExpressions: [{ key: ZONE, values: zones }] }] }),
  });
const withClaim = (name: string, claimName: string) =>
  pod(name, { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] } });

describe('solve: volume topology', () => {
  it('pins a pod to the zone of its bound volume', () => {
    const input = solverInput({
      pods: [withClaim('db', 'data-db')],
      extra: {
        persistentVolumeClaims: [pvc('data-db', { volumeName: 'pv-1' })],
        persistentVolumes: [pv('pv-1', ['zone-b'])],
      },
    });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-b]');
  });

  it('restricts an unbound claim to its StorageClass topologies', () => {
    const input = solverInput({
      pods: [withClaim('db', 'data-db')],
      extra: {
        persistentVolumeClaims: [pvc('data-db', { storageClassName: 'zonal' })],
        storageClasses: [sc('zonal', ['zone-c'])],
      },
    });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-c]');
  });

  it('uses the template storage class of ephemeral volumes', () => {
    const p = pod('job', {
      spec: {
        volumes: [
          {
            name: 'scratch',
            ephemeral: {
              volumeClaimTemplate: { spec: { storageClassName: 'zonal', accessModes: ['ReadWriteOnce'] } },
            },
          },
        ],
      },
    });
    const input = solverInput({ pods: [p], extra: { storageClasses: [sc('zonal', ['zone-a'])] } });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-a]');
  });

  it('keeps volume topology through relaxation of node affinity terms', () => {
    const p = pod('db', {
      spec: {
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db' } }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] },
                { matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] },
              ],
            },
          },
        },
      },
    });
    const input = solverInput({
      pods: [p],
      extra: {
        persistentVolumeClaims: [pvc('data-db', { volumeName: 'pv-1' })],
        persistentVolumes: [pv('pv-1', ['zone-b'])],
      },
    });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-b]');
  });

  it('ignores the hostname pin of local volumes', () => {
    const local = persistentVolumeSchema.parse({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'local-1' },
      spec: {
        local: { path: '/mnt/disks/1' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'kubernetes.io/hostname', operator: 'In', values: ['old-node'] },
                  { key: ZONE, operator: 'In', values: ['zone-a'] },
                ],
              },
            ],
          },
        },
      },
    });
    const input = solverInput({
      pods: [withClaim('db', 'data-db')],
      extra: {
        persistentVolumeClaims: [pvc('data-db', { volumeName: 'local-1' })],
        persistentVolumes: [local],
      },
    });
    expect(summarize(run(input)).claims[0]!.zone).toBe('In [zone-a]');
  });

  it('says so when a claim does not exist', () => {
    const r = run(solverInput({ pods: [withClaim('db', 'missing')] }));
    expect(summarize(r).unschedulable.db).toBe(
      'volume data: PersistentVolumeClaim default/missing not found',
    );
  });

  it('blames the volume when its zone is outside the NodePool', () => {
    const pool = nodePool('default', { requirements: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] });
    const input = solverInput({
      pods: [withClaim('db', 'data-db')],
      nodePools: [pool],
      extra: {
        persistentVolumeClaims: [pvc('data-db', { volumeName: 'pv-1' })],
        persistentVolumes: [pv('pv-1', ['zone-b'])],
      },
    });
    expect(summarize(run(input)).unschedulable.db).toBe(
      'NodePool default: its volumes require topology.kubernetes.io/zone In [zone-b], NodePool allows In [zone-a]',
    );
  });
});
