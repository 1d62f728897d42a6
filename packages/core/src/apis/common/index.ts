export * from './cel.js';
export * from './condition.js';
export * from './cron.js';
export * from './duration.js';
export * from './hash.js';
export * from './metadata.js';
export * from './primitives.js';
