import { describe, expect, it } from 'vitest';
import { persistentVolumeSchema } from '../../apis/kubernetes/persistent-volume.js';
import { storageClassSchema } from '../../apis/kubernetes/storage-class.js';
import { aClaim, aStorageClass, aZonalVolume } from '../../testing/volume-builders.js';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import { boundPod, existing, node, nodePool, pod, solverInput, summarize } from './testing/index.js';
import type { SolverInput } from './types.js';

const ZONE = 'topology.kubernetes.io/zone';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const pvc = aClaim;
const pv = aZonalVolume;
const sc = aStorageClass;
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

  it('allows the union of a StorageClass with several allowedTopologies terms', () => {
    // Karpenter reads only the first term; Kubernetes ORs them, so two zone-anti-affine pods
    // whose class allows zone-a or zone-b must land one in each.
    const twoTerms = storageClassSchema.parse({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'two-zones' },
      provisioner: 'ebs.csi.aws.com',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [
        { matchLabelExpressions: [{ key: ZONE, values: ['zone-a'] }] },
        { matchLabelExpressions: [{ key: ZONE, values: ['zone-b'] }] },
      ],
    });
    const apart = (name: string) =>
      pod(name, {
        labels: { app: 'db' },
        spec: {
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${name}` } }],
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: ZONE },
              ],
            },
          },
        },
      });
    const input = solverInput({
      pods: [apart('db-0'), apart('db-1')],
      extra: {
        persistentVolumeClaims: [
          pvc('data-db-0', { storageClassName: 'two-zones' }),
          pvc('data-db-1', { storageClassName: 'two-zones' }),
        ],
        storageClasses: [twoTerms],
      },
    });
    const s = summarize(run(input));
    expect(s.unschedulable).toEqual({});
    expect(s.claims.map((c) => c.zone).sort()).toEqual(['In [zone-a]', 'In [zone-b]']);
  });

  it("counts spread domains over the pod's own affinity, not its volume zone", () => {
    // kube-scheduler counts minDomains over the zones the pod's node affinity allows; the volume
    // only limits where this pod goes. Counted over zone-a alone, minDomains 3 would make the
    // global minimum 0 and zone-a (1 + 1) exceed maxSkew 1.
    const web = { app: 'web' };
    const full = (zone: string) =>
      existing(
        node(`n-${zone}`, {
          labels: { [ZONE]: zone },
          allocatable: { cpu: '4', memory: '16Gi', pods: '10' },
        }),
        [boundPod(`old-${zone}`, `n-${zone}`, { labels: web })],
      );
    const p = pod('web-new', {
      labels: web,
      spec: {
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web' } }],
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            minDomains: 3,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: web },
          },
        ],
      },
    });
    const input = solverInput({
      pods: [p],
      existing: [full('zone-a'), full('zone-b'), full('zone-c')],
      extra: {
        persistentVolumeClaims: [pvc('data-web', { volumeName: 'pv-1' })],
        persistentVolumes: [pv('pv-1', ['zone-a'])],
      },
    });
    const s = summarize(run(input));
    expect(s.unschedulable).toEqual({});
    expect(s.existing['n-zone-a']).toEqual(['web-new']);
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
