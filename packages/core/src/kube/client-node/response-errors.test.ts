import { describe, expect, it } from 'vitest';
import {
  isAlreadyExists,
  isConflict,
  isGone,
  isInternalError,
  isInvalid,
  isKubeError,
  isNotFound,
  isTooManyRequests,
} from '../errors.js';
import { asKubeError, errorForCode, errorFromResponse, UnreachableError } from './response-errors.js';

const status = (code: number, reason: string | undefined, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  ...(reason === undefined ? {} : { reason }),
  ...(details === undefined ? {} : { details }),
  code,
});

describe('errorFromResponse', () => {
  it('maps Status bodies to the typed errors by reason', () => {
    const notFound = errorFromResponse(
      404,
      status(404, 'NotFound', 'pods "a" not found', { name: 'a', kind: 'pods' }),
    );
    expect(isNotFound(notFound)).toBe(true);
    expect(notFound.message).toBe('pods "a" not found');
    expect(notFound.details).toEqual({ name: 'a', kind: 'pods' });
    expect(isAlreadyExists(errorFromResponse(409, status(409, 'AlreadyExists', 'taken')))).toBe(true);
    const conflict = errorFromResponse(409, status(409, 'Conflict', 'stale'));
    expect(isConflict(conflict)).toBe(true);
    expect(isAlreadyExists(conflict)).toBe(false);
    expect(isTooManyRequests(errorFromResponse(429, status(429, 'TooManyRequests', 'budget')))).toBe(true);
    expect(isGone(errorFromResponse(410, status(410, 'Expired', 'too old resource version')))).toBe(true);
  });

  it('keeps the field causes of an Invalid answer', () => {
    const causes = [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.x' }];
    const err = errorFromResponse(422, status(422, 'Invalid', 'X "a" is invalid', { causes }));
    expect(isInvalid(err)).toBe(true);
    expect(err.details?.causes).toEqual(causes);
  });

  it('keeps the code of a Status without a reason', () => {
    const err = errorFromResponse(500, status(500, undefined, 'resourceVersion should not be set'));
    expect(isInternalError(err)).toBe(true);
    expect(err.reason).toBe('Unknown');
    expect(err.message).toBe('resourceVersion should not be set');
  });

  it('names plain-text answers after their HTTP code', () => {
    const err = errorFromResponse(404, '404 page not found\n');
    expect(isNotFound(err)).toBe(true);
    expect(err.message).toBe('404 page not found');
    const bare = errorFromResponse(503, undefined);
    expect(bare.code).toBe(503);
    expect(bare.reason).toBe('Unknown');
    expect(isTooManyRequests(errorForCode(429, 'slow down'))).toBe(true);
  });
});

describe('asKubeError', () => {
  it('wraps transport failures as 503s that keep their cause, and passes KubeErrors through', () => {
    const cause = new Error('connect ECONNREFUSED 127.0.0.1:6443');
    const err = asKubeError(cause, 'GET /api/v1/pods failed');
    expect(err).toBeInstanceOf(UnreachableError);
    expect(isKubeError(err)).toBe(true);
    expect(err.code).toBe(503);
    expect(err.message).toBe('GET /api/v1/pods failed: connect ECONNREFUSED 127.0.0.1:6443');
    expect(err.cause).toBe(cause);
    const typed = errorForCode(404, 'gone');
    expect(asKubeError(typed, 'x')).toBe(typed);
  });
});

describe('asKubeError on fetch failures', () => {
  it('says why fetch failed in words, from the socket error fetch hides in cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 6443,
    });
    const error = asKubeError(new TypeError('fetch failed', { cause: refused }), 'GET /api failed');
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe('GET /api failed: cannot connect: connection refused (127.0.0.1:6443)');
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.example'), {
      code: 'ENOTFOUND',
      hostname: 'api.example',
    });
    expect(asKubeError(new TypeError('fetch failed', { cause: dns }), 'GET /api failed').message).toBe(
      'GET /api failed: cannot connect: host not found (api.example)',
    );
    const tls = new Error('self-signed certificate in certificate chain');
    expect(asKubeError(new TypeError('fetch failed', { cause: tls }), 'GET /api failed').message).toBe(
      'GET /api failed: cannot connect: self-signed certificate in certificate chain',
    );
    expect(asKubeError(new Error('aborted'), 'GET /api failed').message).toBe('GET /api failed: aborted');
  });
});
