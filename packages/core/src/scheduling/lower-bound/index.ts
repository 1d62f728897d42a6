export * from './lower-bound.js';
export * from './node-pool-offerings.js';
