import { describe, expect, it } from 'vitest';
import { pinJitter, recordRetryDelays, tokenDelay } from './aws-retry-recorder.js';

const token = (delay: number, acquisitionDelay?: number) => ({
  getRetryDelay: () => delay,
  ...(acquisitionDelay === undefined ? {} : { $retryLog: { acquisitionDelay } }),
});

describe('recordRetryDelays', () => {
  it('reports each retry token the strategy hands out and leaves the rest of the strategy alone', async () => {
    const strategy = {
      mode: 'standard',
      retries: 0,
      async refreshRetryTokenForRetry() {
        this.retries++;
        return token(0, 50 * 2 ** (this.retries - 1));
      },
      recordSuccess() {
        return 'recorded';
      },
    };
    let resolved = 0;
    const client = {
      config: {
        retryStrategy: async () => {
          resolved++;
          return strategy;
        },
      },
    };
    const delays: number[] = [];
    recordRetryDelays(client, (ms) => delays.push(ms));
    const wrapped = await (client.config.retryStrategy as () => Promise<typeof strategy>)();
    await wrapped.refreshRetryTokenForRetry();
    await wrapped.refreshRetryTokenForRetry();
    expect(delays).toEqual([50, 100]);
    expect(wrapped.mode).toBe('standard');
    expect(wrapped.recordSuccess()).toBe('recorded');
    expect(strategy.retries).toBe(2);
    expect(await client.config.retryStrategy()).toBe(wrapped);
    expect(resolved).toBe(1);
  });
});

describe('tokenDelay', () => {
  it('reads the wait from whichever side of the SDK waits', () => {
    expect(tokenDelay(token(120))).toBe(120);
    expect(tokenDelay(token(0, 500))).toBe(500);
  });
});

describe('pinJitter', () => {
  it('fixes Math.random until restored', () => {
    const original = Math.random;
    const restore = pinJitter(0.5);
    try {
      expect([Math.random(), Math.random()]).toEqual([0.5, 0.5]);
    } finally {
      restore();
    }
    expect(Math.random).toBe(original);
  });
});

describe('recordRetryDelays on something else', () => {
  it('refuses an object without an SDK retry strategy', () => {
    expect(() => recordRetryDelays({ send: () => undefined }, () => {})).toThrow(/not an AWS SDK v3 client/);
  });
});
