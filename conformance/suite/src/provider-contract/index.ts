export * from './contract-claims.js';
export * from './describe-provider-contract.js';
export * from './fault-injecting-cluster.js';
export * from './harness.js';
export * from './instance-type-checks.js';
