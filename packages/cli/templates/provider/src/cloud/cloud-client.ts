import { backoffDelay, sleep, type Timers } from '@nodewright/core/clock';
import type {
  InstancesResponse,
  InstanceTypesResponse,
  LaunchRequest,
  WireError,
  WireInstance,
} from './wire.js';

/** A failed cloud call: the HTTP status and the cloud's error code. */
export class CloudApiError extends Error {
  override readonly name = 'CloudApiError';
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(`${code} (${status}): ${message}`);
    this.status = status;
    this.code = code;
  }

  /** Throttled (429) and server errors (5xx) may succeed when repeated. */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/** How throttled and failing calls are repeated. */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The wait before the first retry; doubled per retry up to `maxMs`. */
  readonly baseMs: number;
  readonly maxMs: number;
}

export const DefaultRetry: RetryOptions = { attempts: 6, baseMs: 200, maxMs: 10_000 };

/** The wait before retry `n` (1-based): the base doubled per retry, at most `maxMs` (core's backoff rule). */
export function retryDelayMs(options: RetryOptions, n: number): number {
  return backoffDelay(options, n);
}

export interface CloudClientOptions {
  /** The cloud API's base URL, e.g. `http://127.0.0.1:8700`. */
  readonly endpoint: string;
  /** Where the backoff waits: the operator's timers, so tests can record or step them. */
  readonly timers: Timers;
  readonly retry?: RetryOptions;
  /** Told about every retried failure (for logs). */
  readonly onRetry?: (error: CloudApiError, attempt: number, delayMs: number) => void;
}

/**
 * The cloud's API as the provider uses it. Replace the body of each method with your cloud's
 * SDK calls; keep the error mapping (NotFound, InsufficientCapacity, retryable) the provider
 * relies on.
 */
export class CloudClient {
  readonly #o: CloudClientOptions;
  readonly #retry: RetryOptions;

  constructor(options: CloudClientOptions) {
    this.#o = options;
    this.#retry = options.retry ?? DefaultRetry;
  }

  async instanceTypes(): Promise<InstanceTypesResponse> {
    return this.#call<InstanceTypesResponse>('GET', '/v1/instance-types');
  }

  /** Launches an instance, or returns the one already launched with this client token. */
  async launch(request: LaunchRequest): Promise<WireInstance> {
    return this.#call<WireInstance>('POST', '/v1/instances', request);
  }

  /** @throws CloudApiError with status 404 when there is no such instance. */
  async describe(id: string): Promise<WireInstance> {
    return this.#call<WireInstance>('GET', `/v1/instances/${encodeURIComponent(id)}`);
  }

  async list(cluster: string): Promise<readonly WireInstance[]> {
    const query = `?cluster=${encodeURIComponent(cluster)}`;
    return (await this.#call<InstancesResponse>('GET', `/v1/instances${query}`)).instances;
  }

  /** Starts terminating. @throws CloudApiError with status 404 once the instance is gone. */
  async terminate(id: string): Promise<void> {
    await this.#call<unknown>('DELETE', `/v1/instances/${encodeURIComponent(id)}`);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once<T>(method, path, body);
      } catch (error) {
        const retryable = error instanceof CloudApiError && error.retryable;
        if (!retryable || attempt >= this.#retry.attempts) throw error;
        const delayMs = retryDelayMs(this.#retry, attempt);
        this.#o.onRetry?.(error, attempt, delayMs);
        await sleep(this.#o.timers, delayMs);
      }
    }
  }

  async #once<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(new URL(path, this.#o.endpoint), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      const error = parseError(text);
      throw new CloudApiError(response.status, error.code, error.message);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}

function parseError(text: string): WireError {
  try {
    const parsed = JSON.parse(text) as Partial<WireError>;
    return { code: parsed.code ?? 'Unknown', message: parsed.message ?? text };
  } catch {
    return { code: 'Unknown', message: text };
  }
}
