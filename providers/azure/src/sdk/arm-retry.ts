import type { PipelinePolicy, PipelineResponse } from '@azure/core-rest-pipeline';
import { backoffDelay } from '@nodewright/core/clock';

/** How ARM calls are retried. */
export interface ArmRetryOptions {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** The backoff of the first retry; doubled for each further one. */
  readonly baseDelayMs: number;
  /** The most the exponential part grows to. */
  readonly maxDelayMs: number;
  /** Told each wait before it starts (metrics, logs, the conformance suite's backoff check). */
  readonly onRetry?: (delayMs: number, why: string) => void;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Statuses worth another try: throttling, timeouts and the transient 5xx. */
export function retriableStatus(status: number): boolean {
  return (
    status === 429 || status === 408 || status === 500 || status === 502 || status === 503 || status === 504
  );
}

/** Seconds or an HTTP date, as ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before retry `attempt` (0-based): ARM's Retry-After as a floor, plus an exponential
 * backoff on top, so a call throttled again waits longer each time even when ARM repeats the
 * same Retry-After. Deterministic: no jitter, since one operator makes few concurrent calls.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: number | undefined,
  o: Pick<ArmRetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  // attempt counts from 0; core's backoff counts failures from 1.
  return (retryAfter ?? 0) + backoffDelay({ baseMs: o.baseDelayMs, maxMs: o.maxDelayMs }, attempt + 1);
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** An error from sending, not from ARM's answer (connection refused, reset, TLS). */
function isTransportError(err: unknown): boolean {
  const e = err as { code?: unknown; statusCode?: unknown };
  return (
    e?.statusCode === undefined &&
    (e?.code === 'REQUEST_SEND_ERROR' ||
      e?.code === 'ECONNRESET' ||
      e?.code === 'ECONNREFUSED' ||
      // A connection that took too long to open (connectDeadlineAgent).
      e?.code === 'ETIMEDOUT' ||
      // An attempt past its deadline (armDeadlinePolicy): retried, as AWS's SDK retries its timeouts.
      e?.code === 'REQUEST_TIMEOUT')
  );
}

/**
 * The pipeline policy that retries ARM calls (the SDK's own retries are switched off, so one
 * policy decides every wait): 429 and transient 5xx answers and transport failures, up to
 * `maxRetries` times, waiting {@link retryDelayMs}.
 */
export function armRetryPolicy(o: ArmRetryOptions): PipelinePolicy {
  const sleep = o.sleep ?? defaultSleep;
  return {
    name: 'nodewrightArmRetry',
    async sendRequest(request, next) {
      for (let attempt = 0; ; attempt++) {
        let response: PipelineResponse | undefined;
        try {
          response = await next(request);
        } catch (err) {
          if (!isTransportError(err) || attempt >= o.maxRetries) throw err;
          const delay = retryDelayMs(attempt, undefined, o);
          o.onRetry?.(delay, err instanceof Error ? err.message : String(err));
          await sleep(delay, request.abortSignal as AbortSignal | undefined);
          continue;
        }
        if (!retriableStatus(response.status) || attempt >= o.maxRetries) return response;
        const delay = retryDelayMs(attempt, retryAfterMs(response.headers.get('retry-after'), Date.now()), o);
        o.onRetry?.(delay, `HTTP ${response.status}`);
        await sleep(delay, request.abortSignal as AbortSignal | undefined);
      }
    },
  };
}
