export * from './lower-bound.js';
export * from './lower-bound-cache.js';
export * from './node-pool-offerings.js';
