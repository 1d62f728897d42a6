export * from './clock.js';
export * from './timers.js';
