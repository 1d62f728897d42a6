import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { persistentVolumeSchema } from './persistent-volume.js';
import { persistentVolumeClaimSchema } from './persistent-volume-claim.js';
import { storageClassSchema } from './storage-class.js';

const pathsOf = (schema: { safeParse(v: unknown): { error?: { issues: unknown[] } } }, value: unknown) =>
  fieldErrors((schema.safeParse(value).error?.issues ?? []) as Parameters<typeof fieldErrors>[0]).map(
    (e) => e.path,
  );

describe('persistentVolumeClaimSchema', () => {
  it('parses class, volume name and requests; namespace defaults to default', () => {
    const pvc = persistentVolumeClaimSchema.parse({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        storageClassName: '',
        volumeName: 'pv-1',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '10Gi' } },
      },
      status: { phase: 'Bound' },
    });
    expect(pvc.metadata.namespace).toBe('default');
    expect(pvc.spec.storageClassName).toBe('');
    expect(pvc.spec.volumeName).toBe('pv-1');
  });

  it('rejects unknown access modes and bad sizes', () => {
    expect(
      pathsOf(persistentVolumeClaimSchema, {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: 'big' } } },
      }),
    ).toEqual(['spec.accessModes[0]', 'spec.resources.requests.storage']);
  });
});

describe('persistentVolumeSchema', () => {
  const pv = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv-1' },
    spec: {
      capacity: { storage: '10Gi' },
      storageClassName: 'gp3',
      csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'topology.ebs.csi.aws.com/zone', operator: 'In', values: ['us-west-2a'] },
              ],
            },
          ],
        },
      },
    },
  };

  it('parses CSI source and node affinity', () => {
    const parsed = persistentVolumeSchema.parse(pv);
    expect(parsed.spec.csi?.driver).toBe('ebs.csi.aws.com');
    expect(parsed.spec.nodeAffinity?.required?.nodeSelectorTerms).toHaveLength(1);
  });

  it('checks the node affinity like any node selector', () => {
    const bad = structuredClone(pv);
    bad.spec.nodeAffinity.required.nodeSelectorTerms[0]!.matchExpressions[0]!.values = [];
    expect(pathsOf(persistentVolumeSchema, bad)).toEqual([
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values',
    ]);
    const noDriver = structuredClone(pv);
    noDriver.spec.csi.driver = '';
    expect(pathsOf(persistentVolumeSchema, noDriver)).toEqual(['spec.csi.driver']);
  });
});

describe('storageClassSchema', () => {
  const sc = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'gp3' },
    provisioner: 'x',
  };

  it('defaults volumeBindingMode to Immediate and reclaimPolicy to Delete', () => {
    const parsed = storageClassSchema.parse(sc);
    expect(parsed.volumeBindingMode).toBe('Immediate');
    expect(parsed.reclaimPolicy).toBe('Delete');
  });

  it('parses allowedTopologies and WaitForFirstConsumer', () => {
    const parsed = storageClassSchema.parse({
      ...sc,
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [
        {
          matchLabelExpressions: [
            { key: 'topology.kubernetes.io/zone', values: ['us-west-2a', 'us-west-2b'] },
          ],
        },
      ],
    });
    expect(parsed.volumeBindingMode).toBe('WaitForFirstConsumer');
    expect(parsed.allowedTopologies?.[0]?.matchLabelExpressions?.[0]?.values).toHaveLength(2);
  });

  it('requires a provisioner and checks the enums and topology values', () => {
    const { provisioner: _, ...noProvisioner } = sc;
    expect(
      pathsOf(storageClassSchema, {
        ...noProvisioner,
        volumeBindingMode: 'Later',
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }],
      }),
    ).toEqual(['provisioner', 'volumeBindingMode', 'allowedTopologies[0].matchLabelExpressions[0].values']);
  });
});
