export * from './cluster-autoscaler.js';
export * from './node-groups.js';
export * from './run-baseline.js';
