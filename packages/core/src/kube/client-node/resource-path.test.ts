import { describe, expect, it } from 'vitest';
import { resourceType } from '../resource-type.js';
import { Nodes, Pods } from '../resource-types.js';
import { apiPrefix, collectionPath, objectPath, queryString } from './resource-path.js';

const NodeClaims = resourceType({ apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', namespaced: false });
const Gadgets = resourceType({ apiVersion: 'example.com/v1', kind: 'Gadget', namespaced: true });

describe('resource paths', () => {
  it('puts the core group under /api and every other group under /apis', () => {
    expect(apiPrefix(Pods)).toBe('/api/v1');
    expect(apiPrefix(NodeClaims)).toBe('/apis/karpenter.sh/v1');
  });

  it('addresses collections across or within namespaces, and ignores namespaces for cluster kinds', () => {
    expect(collectionPath(Pods)).toBe('/api/v1/pods');
    expect(collectionPath(Pods, 'team')).toBe('/api/v1/namespaces/team/pods');
    expect(collectionPath(Nodes, 'team')).toBe('/api/v1/nodes');
    expect(collectionPath(Gadgets, '')).toBe('/apis/example.com/v1/gadgets');
  });

  it('addresses objects and subresources, defaulting namespaced kinds to "default"', () => {
    expect(objectPath(Pods, 'web', undefined)).toBe('/api/v1/namespaces/default/pods/web');
    expect(objectPath(Pods, 'web', 'team', 'eviction')).toBe('/api/v1/namespaces/team/pods/web/eviction');
    expect(objectPath(NodeClaims, 'nc', 'ignored', 'status')).toBe(
      '/apis/karpenter.sh/v1/nodeclaims/nc/status',
    );
  });

  it('escapes names so they cannot leave their path segment', () => {
    expect(objectPath(Gadgets, 'a/b?c', 'x y')).toBe(
      '/apis/example.com/v1/namespaces/x%20y/gadgets/a%2Fb%3Fc',
    );
  });

  it('renders only the defined query parameters', () => {
    expect(queryString(undefined)).toBe('');
    expect(queryString({ a: undefined })).toBe('');
    expect(queryString({ labelSelector: 'app in (a,b)', limit: 5, force: true, skip: undefined })).toBe(
      '?labelSelector=app+in+%28a%2Cb%29&limit=5&force=true',
    );
  });
});
