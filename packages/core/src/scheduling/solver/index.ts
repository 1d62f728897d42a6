export * from './preferences.js';
export { solve } from './solve.js';
export * from './testing/benchmark.js';
export * from './types.js';
