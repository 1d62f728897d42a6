import { describe, expect, it } from 'vitest';
import { aPod } from '../../testing/pod-builder.js';
import { aClaim, aStorageClass, aZonalVolume } from '../../testing/volume-builders.js';
import { VolumeIndex } from '../volumes/volume-topology.js';
import { effectiveZone, FlexibleZone, NoZone } from './effective-zone.js';

const ZONE = 'topology.kubernetes.io/zone';

const claim = aClaim;
const volume = aZonalVolume;
const storageClass = aStorageClass;

const volumes = new VolumeIndex(
  [claim('bound-b', { volumeName: 'pv-b' }), claim('class-ab', { storageClassName: 'ab' })],
  [volume('pv-b', ['zone-b'])],
  [storageClass('ab', ['zone-a', 'zone-b'])],
);

function aPendingPod(spec: Record<string, unknown>) {
  return aPod({ metadata: { name: 'p', namespace: 'default' }, spec });
}
const usingClaim = (claimName: string) => ({
  volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
});
const zoneAffinity = (operator: string, values: string[]) => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator, values }] }],
      },
    },
  },
});

describe('effectiveZone', () => {
  it('is flexible without a zone signal, and the one zone a selector or a volume names', () => {
    expect(effectiveZone(aPendingPod({}), volumes)).toBe(FlexibleZone);
    expect(effectiveZone(aPendingPod({ nodeSelector: { [ZONE]: 'zone-a' } }), volumes)).toBe('zone-a');
    expect(effectiveZone(aPendingPod(usingClaim('bound-b')), volumes)).toBe('zone-b');
  });

  it('intersects the zone requirement with the volumes, flexible while several zones remain', () => {
    expect(effectiveZone(aPendingPod(usingClaim('class-ab')), volumes)).toBe(FlexibleZone);
    expect(
      effectiveZone(
        aPendingPod({ ...usingClaim('class-ab'), ...zoneAffinity('In', ['zone-a', 'zone-c']) }),
        volumes,
      ),
    ).toBe('zone-a');
    expect(
      effectiveZone(
        aPendingPod({ ...usingClaim('class-ab'), ...zoneAffinity('NotIn', ['zone-a']) }),
        volumes,
      ),
    ).toBe('zone-b');
  });

  it('is none when the signals exclude each other', () => {
    expect(
      effectiveZone(aPendingPod({ ...usingClaim('bound-b'), nodeSelector: { [ZONE]: 'zone-a' } }), volumes),
    ).toBe(NoZone);
  });

  it('leaves preferred affinity out: only what the pod requires confines it', () => {
    const preferred = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] },
            },
          ],
        },
      },
    };
    expect(effectiveZone(aPendingPod(preferred), volumes)).toBe(FlexibleZone);
  });
});
