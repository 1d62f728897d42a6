export * from './preferences.js';
export { SolveChannel, solve, solveInSlices, solveSteps } from './solve.js';
export { SolverCache } from './solver-cache.js';
export * from './testing/benchmark.js';
export * from './types.js';
