export * from './backoff.js';
export * from './clock.js';
export * from './deadline.js';
export * from './timers.js';
