export * from './benchmark.js';
export * from './builders.js';
