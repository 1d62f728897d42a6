import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  errorFromStatus,
  GoneError,
  ignoreAlreadyExists,
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  NotFoundError,
  notFound,
  TooManyRequestsError,
} from './errors.js';
import { resourceType } from './resource-type.js';
import { Pods } from './resource-types.js';

describe('KubeError', () => {
  it('carries code, reason and a Status body', () => {
    const err = notFound(Pods, 'p');
    expect(err.code).toBe(404);
    expect(err.toStatus()).toEqual({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      message: 'pods "p" not found',
      reason: 'NotFound',
      code: 404,
      details: { name: 'p', group: '', kind: 'pods' },
    });
  });

  it('names grouped resources plural.group', () => {
    const NodeClaims = resourceType({ apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', namespaced: false });
    expect(notFound(NodeClaims, 'x').message).toBe('nodeclaims.karpenter.sh "x" not found');
    const Classes = resourceType({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      namespaced: false,
    });
    expect(Classes.plural).toBe('ec2nodeclasses');
  });

  it('tells 409s apart by reason', () => {
    const err = new ConflictError('stale');
    expect(isConflict(err)).toBe(true);
    expect(isAlreadyExists(err)).toBe(false);
    expect(isNotFound(new Error('plain'))).toBe(false);
  });

  it('rebuilds typed errors from a Status body', () => {
    expect(errorFromStatus({ code: 429, reason: 'TooManyRequests', message: 'm' })).toBeInstanceOf(
      TooManyRequestsError,
    );
    expect(isGone(errorFromStatus({ code: 410, reason: 'Expired', message: 'old' }))).toBe(true);
    expect(errorFromStatus({ code: 410, reason: 'Expired' })).toBeInstanceOf(GoneError);
    expect(isInvalid(errorFromStatus({ code: 422, reason: 'Invalid' }))).toBe(true);
    const unknown = errorFromStatus({ code: 503, message: 'down' });
    expect([unknown.code, unknown.reason]).toEqual([503, 'Unknown']);
    expect(isTooManyRequests(errorFromStatus({ code: 429 }))).toBe(true);
  });

  it('ignore helpers swallow only their own kind', () => {
    expect(() => ignoreNotFound(new NotFoundError('gone'))).not.toThrow();
    expect(() => ignoreNotFound(new ConflictError('x'))).toThrow('x');
    expect(() => ignoreAlreadyExists(new NotFoundError('gone'))).toThrow('gone');
  });
});
