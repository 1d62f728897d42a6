export * from './preferences.js';
export { solve } from './solve.js';
export * from './types.js';
export * from './testing/benchmark.js';
