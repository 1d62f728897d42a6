export * from './decide.js';
export * from './leader-elector.js';
export * from './lease.js';
