export * from './benchmark.js';
export * from './builders.js';
export * from './summary.js';
