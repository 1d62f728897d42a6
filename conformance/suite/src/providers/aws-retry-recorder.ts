/** The parts of an SDK v3 retry token this module reads. */
interface RetryToken {
  getRetryDelay(): number;
  /** Newer SDKs wait inside refreshRetryTokenForRetry and note the wait here (getRetryDelay is 0). */
  readonly $retryLog?: { readonly acquisitionDelay?: number };
}

/** An SDK v3 retry strategy (RetryStrategyV2), narrowed to the call this module wraps. */
interface RetryStrategy {
  refreshRetryTokenForRetry(token: RetryToken, errorInfo: unknown): Promise<RetryToken>;
}

/** The wait a retry token stands for, whichever side of the SDK does the waiting. */
export function tokenDelay(token: RetryToken): number {
  return Math.max(token.getRetryDelay(), token.$retryLog?.acquisitionDelay ?? 0);
}

/**
 * Makes `client` report the wait its own retry strategy chose before every retry, unchanged
 * otherwise: the strategy the client resolved (the SDK's standard one for the provider's
 * clients) keeps deciding and waiting; only its answers are observed. The retry middleware reads
 * `config.retryStrategy` on every call, so wrapping the provider there covers calls to come.
 */
export function recordRetryDelays(client: object, onDelay: (ms: number) => void): void {
  // The provider's clients are typed by the calls it makes; underneath is an SDK v3 client, whose
  // resolved config holds the retry strategy provider.
  const config = (client as { config?: { retryStrategy?: unknown } }).config;
  if (typeof config?.retryStrategy !== 'function') {
    throw new Error('recordRetryDelays: not an AWS SDK v3 client (no config.retryStrategy)');
  }
  const resolve = config.retryStrategy as () => Promise<RetryStrategy>;
  let recording: Promise<RetryStrategy> | undefined;
  config.retryStrategy = () => {
    recording ??= resolve().then(
      (strategy) =>
        new Proxy(strategy, {
          get(target, property, receiver) {
            if (property === 'refreshRetryTokenForRetry') {
              return async (token: RetryToken, errorInfo: unknown) => {
                const next = await target.refreshRetryTokenForRetry(token, errorInfo);
                onDelay(tokenDelay(next));
                return next;
              };
            }
            const value: unknown = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
    );
    return recording;
  };
}

/**
 * Pins `Math.random`, the draw of the SDK's full-jitter backoff (delay = draw x base x 2^retry),
 * until the returned function restores it. With the draw fixed, the delays the standard strategy
 * chooses are a fixed fraction of its exponential ceiling, so a check that they grow cannot
 * flake. Nothing else in the provider or the mock draws from Math.random (the SDK's request ids
 * and idempotency tokens come from crypto.randomUUID).
 */
export function pinJitter(draw: number): () => void {
  const original = Math.random;
  Math.random = () => draw;
  return () => {
    Math.random = original;
  };
}
