import { nodePoolKind } from '@nodewright/core/apis';
import { describe, expect, it } from 'vitest';
import { resourcePaths } from './resource-paths.js';

describe('resourcePaths', () => {
  it('derives the CRD and object paths from the kind', () => {
    const paths = resourcePaths(nodePoolKind);
    expect(paths.crdName).toBe('nodepools.karpenter.sh');
    expect(paths.applyCrd('nodewright')).toBe(
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nodepools.karpenter.sh?fieldManager=nodewright&force=true',
    );
    expect(paths.collection).toBe('/apis/karpenter.sh/v1/nodepools');
    expect(paths.status('a')).toBe('/apis/karpenter.sh/v1/nodepools/a/status');
    expect(paths.scale('a')).toBe('/apis/karpenter.sh/v1/nodepools/a/scale');
  });

  it('refuses kinds without a CRD or with a namespace', () => {
    expect(() => resourcePaths({ ...nodePoolKind, crd: undefined })).toThrow(/no CRD/);
    expect(() => resourcePaths({ ...nodePoolKind, namespaced: true })).toThrow(/namespaced/);
  });
});
