import { aNodeClaim } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import {
  type GCENodeClass,
  GCENodeClassAnnotations,
  GCENodeClassHashVersion,
  gceNodeClassHash,
} from '../apis/index.js';
import { driftReason } from './drift.js';

const image = 'projects/cos-cloud/global/images/cos-stable-121';
const nodeClass = {
  apiVersion: 'karpenter.k8s.gcp/v1alpha1',
  kind: 'GCENodeClass',
  metadata: { name: 'default' },
  spec: { imageSelectorTerms: [{ alias: 'cos@latest' }] },
  status: { images: [{ sourceImage: image, requirements: [] }] },
} as unknown as GCENodeClass;

const claim = (hash = gceNodeClassHash(nodeClass)) =>
  aNodeClaim({
    metadata: {
      name: 'c',
      annotations: {
        [GCENodeClassAnnotations.Hash]: hash,
        [GCENodeClassAnnotations.HashVersion]: GCENodeClassHashVersion,
      },
    },
  });

describe('driftReason', () => {
  it('is undefined while hash, image and Kubernetes minor version all match', () => {
    expect(
      driftReason({
        nodeClaim: claim(),
        nodeClass,
        instanceImage: image,
        instanceKubernetesVersion: '1.33.1',
        kubernetesVersion: '1.33.4',
      }),
    ).toBeUndefined();
  });

  it('names the NodeClass hash, then the image, then the Kubernetes version', () => {
    expect(driftReason({ nodeClaim: claim('other'), nodeClass, instanceImage: 'x' })).toBe('NodeClassDrift');
    expect(driftReason({ nodeClaim: claim(), nodeClass, instanceImage: 'x' })).toBe('ImageDrift');
    expect(
      driftReason({
        nodeClaim: claim(),
        nodeClass,
        instanceImage: image,
        instanceKubernetesVersion: '1.33.2',
        kubernetesVersion: 'v1.34',
      }),
    ).toBe('KubernetesVersionDrift');
  });

  it('does not drift on the version when either side is unknown', () => {
    for (const [launched, now] of [
      [undefined, '1.34'],
      ['1.33', undefined],
      ['garbage', '1.34'],
    ] as const) {
      expect(
        driftReason({
          nodeClaim: claim(),
          nodeClass,
          instanceImage: image,
          instanceKubernetesVersion: launched,
          kubernetesVersion: now,
        }),
      ).toBeUndefined();
    }
  });
});
