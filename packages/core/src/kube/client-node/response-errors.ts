import { errorFromStatus, KubeError, type StatusDetails, type StatusReason } from '../errors.js';
import { isJsonObject } from '../json.js';

/** The reason Kubernetes gives each HTTP code, for answers that carry no Status body. */
const REASON_BY_CODE: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
};

/**
 * The typed error for a failed response: the Status body when the server sent one (every
 * API error), otherwise an error named after the HTTP code (a proxy's or a mux's plain-text
 * "404 page not found" for an unknown API group).
 */
export function errorFromResponse(code: number, body: unknown): KubeError {
  if (isJsonObject(body) && body.kind === 'Status') {
    return errorFromStatus({
      code: typeof body.code === 'number' ? body.code : code,
      ...(typeof body.reason === 'string' && body.reason !== '' ? { reason: body.reason } : {}),
      ...(typeof body.message === 'string' ? { message: body.message } : {}),
      ...(isJsonObject(body.details) ? { details: body.details as unknown as StatusDetails } : {}),
    });
  }
  const text = typeof body === 'string' ? body.trim() : '';
  return errorForCode(code, text === '' ? `the server responded with HTTP ${code}` : text);
}

/** An error for a bare HTTP code (watch connections expose no Status body when refused). */
export function errorForCode(code: number, message: string): KubeError {
  return errorFromStatus({ code, reason: REASON_BY_CODE[code] ?? 'Unknown', message });
}

/** The request never got an answer: connection refused or reset, TLS failure, DNS. */
export class UnreachableError extends KubeError {
  override readonly name = 'UnreachableError';
  constructor(message: string, cause: unknown) {
    super(503, 'Unknown', message);
    this.cause = cause;
  }
}

/** Wraps anything a request threw into a KubeError, keeping KubeErrors as they are. */
export function asKubeError(err: unknown, what: string): KubeError {
  if (err instanceof KubeError) return err;
  return new UnreachableError(`${what}: ${unreachableDetail(err)}`, err);
}

/** Plain words for the usual socket failures, which fetch reports only as their codes. */
const SocketFailures: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/**
 * What went wrong, in words: fetch says only "fetch failed" and hides the reason in `cause`
 * (a socket error with a code and the address, or a TLS error), which is what a user needs.
 */
function unreachableDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause: unknown = err.cause;
  if (err.message !== 'fetch failed' || !(cause instanceof Error)) return err.message;
  const socket = cause as Error & { code?: unknown; address?: unknown; port?: unknown; hostname?: unknown };
  const words = typeof socket.code === 'string' ? SocketFailures[socket.code] : undefined;
  if (words === undefined) return `cannot connect: ${cause.message}`;
  const host = typeof socket.address === 'string' ? socket.address : socket.hostname;
  const where =
    typeof host === 'string' ? ` (${host}${typeof socket.port === 'number' ? `:${socket.port}` : ''})` : '';
  return `cannot connect: ${words}${where}`;
}
