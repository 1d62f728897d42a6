export * from './check-solution.js';
