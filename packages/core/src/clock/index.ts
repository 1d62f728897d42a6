export * from './backoff.js';
export * from './clock.js';
export * from './deadline.js';
export * from './io-turn.js';
export * from './slices.js';
export * from './sort-steps.js';
export * from './timers.js';
