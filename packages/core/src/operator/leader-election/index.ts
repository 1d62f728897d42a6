export * from './decide.js';
export * from './fenced-cluster.js';
export * from './leader-elector.js';
export * from './lease.js';
