export * from './benchmark.js';
export * from './builders.js';
export * from './checked.js';
export * from './summary.js';
