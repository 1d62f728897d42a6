import type { NodeClaim } from '@nodewright/core/apis';
import { describe, expect, it } from 'vitest';
import {
  type AKSNodeClass,
  AKSNodeClassAnnotations,
  AKSNodeClassHashVersion,
  aksNodeClassHash,
  aksNodeClassSchema,
} from '../apis/index.js';
import { imageDefinitionsOf, resolvedImage } from '../nodeclass/images.js';
import { driftReason } from './drift.js';

/** The images the status controller records for a NodeClass at one gallery version. */
const resolveImages = (nc: AKSNodeClass, version: string) =>
  imageDefinitionsOf(nc).map(({ arch, definition }) => resolvedImage(arch, definition, version));

const nodeClass = (spec: Record<string, unknown>, version = '202511.07.0'): AKSNodeClass => {
  const nc = aksNodeClassSchema.parse({
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name: 'default' },
    spec,
  });
  return { ...nc, status: { images: resolveImages(nc, version) } };
};

const claimOf = (nc: AKSNodeClass): NodeClaim =>
  ({
    metadata: {
      name: 'c',
      labels: { 'kubernetes.io/arch': 'amd64' },
      annotations: {
        [AKSNodeClassAnnotations.Hash]: aksNodeClassHash(nc),
        [AKSNodeClassAnnotations.HashVersion]: AKSNodeClassHashVersion,
      },
    },
    spec: {},
    status: { imageID: resolveImages(nc, '202511.07.0')[0]!.id },
  }) as unknown as NodeClaim;

describe('driftReason', () => {
  it('is undefined for the NodeClass the claim was launched from', () => {
    const nc = nodeClass({ osDiskSizeGB: 128 });
    expect(driftReason(claimOf(nc), nc)).toBeUndefined();
  });
  it('NodeClassDrift when the spec changed', () => {
    const nc = nodeClass({ osDiskSizeGB: 128 });
    expect(driftReason(claimOf(nc), nodeClass({ osDiskSizeGB: 256 }))).toBe('NodeClassDrift');
  });
  it('ImageDrift when the image version or family changed, not NodeClassDrift', () => {
    const nc = nodeClass({});
    expect(driftReason(claimOf(nc), nodeClass({}, '202512.01.0'))).toBe('ImageDrift');
    expect(driftReason(claimOf(nc), nodeClass({ imageFamily: 'AzureLinux' }))).toBe('ImageDrift');
  });
  it('does not compare hashes of another hash version', () => {
    const nc = nodeClass({ osDiskSizeGB: 128 });
    const claim = claimOf(nc);
    claim.metadata.annotations![AKSNodeClassAnnotations.HashVersion] = 'old';
    expect(driftReason(claim, nodeClass({ osDiskSizeGB: 256 }))).toBeUndefined();
  });

  it('KubernetesVersionDrift when the status names another Kubernetes version than the claim was launched with', () => {
    const nc = nodeClass({ osDiskSizeGB: 128 });
    const claim = claimOf(nc);
    claim.metadata.annotations![AKSNodeClassAnnotations.KubernetesVersion] = '1.33.2';
    const at = (v: string) => ({ ...nc, status: { ...nc.status, kubernetesVersion: v } }) as AKSNodeClass;
    expect(driftReason(claim, at('1.33.2'))).toBeUndefined();
    expect(driftReason(claim, at('1.34.0'))).toBe('KubernetesVersionDrift');
    // A claim launched before the version was stamped is not compared.
    delete claim.metadata.annotations![AKSNodeClassAnnotations.KubernetesVersion];
    expect(driftReason(claim, at('1.34.0'))).toBeUndefined();
  });
});
