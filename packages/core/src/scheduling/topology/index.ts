export * from './domain-registry.js';
export * from './group-scan.js';
export * from './group-specs.js';
export * from './node-filter.js';
export * from './topology.js';
export * from './topology-group.js';
