export * from './cost-ledger.js';
export * from './instance.js';
export * from './interruption-queue.js';
export * from './launch-plan.js';
export * from './node-registration.js';
export * from './offering-match.js';
export * from './options.js';
export * from './simulated-cloud-provider.js';
