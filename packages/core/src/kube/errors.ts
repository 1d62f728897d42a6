import { groupOf, groupResource, type ResourceType } from './resource-type.js';

/**
 * Errors the cluster port raises, shaped after the API server's `Status` responses so the real
 * and in-memory adapters fail the same way and controllers branch on `reason`, never on text.
 */

/** `metav1.StatusReason` values the port produces. */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'TooManyRequests'
  | 'Invalid'
  | 'BadRequest'
  | 'Forbidden'
  | 'Expired'
  | 'Gone'
  | 'InternalError'
  | 'Timeout'
  | 'Unknown';

/** One `details.causes[]` entry: a field-level explanation. */
export interface StatusCause {
  readonly reason?: string;
  readonly message: string;
  readonly field?: string;
}

/** `metav1.StatusDetails`. */
export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  /** The resource (plural), as the API server reports it. */
  readonly kind?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** A `metav1.Status` failure, the wire form of every KubeError. */
export interface Status {
  readonly apiVersion: 'v1';
  readonly kind: 'Status';
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: StatusReason;
  readonly code: number;
  readonly details?: StatusDetails;
}

/** A failed API call: HTTP `code`, Kubernetes `reason` and optional details. */
export class KubeError extends Error {
  override readonly name: string = 'KubeError';
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  /** The Status body an API server would have answered with. */
  toStatus(): Status {
    const status: Status = {
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    return this.details === undefined ? status : { ...status, details: this.details };
  }
}

/** 404: the object (or the kind itself) does not exist. */
export class NotFoundError extends KubeError {
  override readonly name = 'NotFoundError';
  constructor(message: string, details?: StatusDetails) {
    super(404, 'NotFound', message, details);
  }
}

/** 409: create of a name already taken. */
export class AlreadyExistsError extends KubeError {
  override readonly name = 'AlreadyExistsError';
  constructor(message: string, details?: StatusDetails) {
    super(409, 'AlreadyExists', message, details);
  }
}

/** 409: a stale resourceVersion, failed precondition or server-side-apply field conflict. */
export class ConflictError extends KubeError {
  override readonly name = 'ConflictError';
  constructor(message: string, details?: StatusDetails) {
    super(409, 'Conflict', message, details);
  }
}

/** 429: retry later; the Eviction API answers this when a PodDisruptionBudget blocks. */
export class TooManyRequestsError extends KubeError {
  override readonly name = 'TooManyRequestsError';
  constructor(message: string, details?: StatusDetails) {
    super(429, 'TooManyRequests', message, details);
  }
}

/** 422: the object fails validation; `details.causes` name the fields. */
export class InvalidError extends KubeError {
  override readonly name = 'InvalidError';
  constructor(message: string, details?: StatusDetails) {
    super(422, 'Invalid', message, details);
  }
}

/** 400: a malformed request (unparsable selector, missing field manager, ...). */
export class BadRequestError extends KubeError {
  override readonly name = 'BadRequestError';
  constructor(message: string, details?: StatusDetails) {
    super(400, 'BadRequest', message, details);
  }
}

/** 403: refused by policy (e.g. creating content in a terminating namespace). */
export class ForbiddenError extends KubeError {
  override readonly name = 'ForbiddenError';
  constructor(message: string, details?: StatusDetails) {
    super(403, 'Forbidden', message, details);
  }
}

/** 410: a watch asked to resume from a resourceVersion the server no longer has. */
export class GoneError extends KubeError {
  override readonly name = 'GoneError';
  constructor(message: string, details?: StatusDetails) {
    super(410, 'Expired', message, details);
  }
}

/** 500: the server could not do it (e.g. eviction of a pod covered by several PDBs). */
export class InternalError extends KubeError {
  override readonly name = 'InternalError';
  constructor(message: string, details?: StatusDetails) {
    super(500, 'InternalError', message, details);
  }
}

const byReason: Record<string, new (message: string, details?: StatusDetails) => KubeError> = {
  NotFound: NotFoundError,
  AlreadyExists: AlreadyExistsError,
  Conflict: ConflictError,
  TooManyRequests: TooManyRequestsError,
  Invalid: InvalidError,
  BadRequest: BadRequestError,
  Forbidden: ForbiddenError,
  Expired: GoneError,
  InternalError: InternalError,
};

/** The typed error for a Status body (as a real API server sends it). */
export function errorFromStatus(status: {
  code?: number;
  reason?: string;
  message?: string;
  details?: StatusDetails;
}): KubeError {
  const message = status.message ?? `request failed with code ${status.code ?? 'unknown'}`;
  const Ctor = status.reason === undefined ? undefined : byReason[status.reason];
  if (Ctor !== undefined) return new Ctor(message, status.details);
  return new KubeError(
    status.code ?? 500,
    (status.reason as StatusReason | undefined) ?? 'Unknown',
    message,
    status.details,
  );
}

function detailsFor(
  type: ResourceType,
  name: string | undefined,
  extra?: Partial<StatusDetails>,
): StatusDetails {
  return { ...(name === undefined ? {} : { name }), group: groupOf(type), kind: type.plural, ...extra };
}

/** `pods "x" not found`. */
export function notFound(type: ResourceType, name: string): NotFoundError {
  return new NotFoundError(`${groupResource(type)} "${name}" not found`, detailsFor(type, name));
}

/** `pods "x" already exists`. */
export function alreadyExists(type: ResourceType, name: string): AlreadyExistsError {
  return new AlreadyExistsError(`${groupResource(type)} "${name}" already exists`, detailsFor(type, name));
}

/** `Operation cannot be fulfilled on pods "x": <why>`. */
export function conflict(type: ResourceType, name: string, why: string): ConflictError {
  return new ConflictError(
    `Operation cannot be fulfilled on ${groupResource(type)} "${name}": ${why}`,
    detailsFor(type, name),
  );
}

/** The message a stale resourceVersion gets. */
export const STALE_OBJECT_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** `Pod "x" is invalid: field: detail; field: detail`. */
export function invalid(type: ResourceType, name: string, causes: readonly StatusCause[]): InvalidError {
  const text = causes.map((c) => (c.field === undefined ? c.message : `${c.field}: ${c.message}`)).join(', ');
  return new InvalidError(`${type.kind} "${name}" is invalid: ${text}`, detailsFor(type, name, { causes }));
}

/** `pods "x" is forbidden: <why>`. */
export function forbidden(type: ResourceType, name: string, why: string): ForbiddenError {
  return new ForbiddenError(`${groupResource(type)} "${name}" is forbidden: ${why}`, detailsFor(type, name));
}

function hasReason(err: unknown, reason: StatusReason): boolean {
  return err instanceof KubeError && err.reason === reason;
}

export function isKubeError(err: unknown): err is KubeError {
  return err instanceof KubeError;
}
export function isNotFound(err: unknown): err is KubeError {
  return hasReason(err, 'NotFound');
}
export function isAlreadyExists(err: unknown): err is KubeError {
  return hasReason(err, 'AlreadyExists');
}
export function isConflict(err: unknown): err is KubeError {
  return hasReason(err, 'Conflict');
}
export function isTooManyRequests(err: unknown): err is KubeError {
  return err instanceof KubeError && (err.reason === 'TooManyRequests' || err.code === 429);
}
export function isInvalid(err: unknown): err is KubeError {
  return hasReason(err, 'Invalid');
}
export function isBadRequest(err: unknown): err is KubeError {
  return hasReason(err, 'BadRequest');
}
export function isForbidden(err: unknown): err is KubeError {
  return hasReason(err, 'Forbidden');
}
/** 410 of either flavour: a watch must restart from a fresh list. */
export function isGone(err: unknown): err is KubeError {
  return err instanceof KubeError && err.code === 410;
}
export function isInternalError(err: unknown): err is KubeError {
  return err instanceof KubeError && err.code === 500;
}

/** Rethrows anything but NotFound, so "already gone" counts as done. */
export function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}
/** Rethrows anything but AlreadyExists, for idempotent creates. */
export function ignoreAlreadyExists(err: unknown): void {
  if (!isAlreadyExists(err)) throw err;
}
