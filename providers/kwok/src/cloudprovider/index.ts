export * from './kwok-cloud-provider.js';
export * from './kwok-node.js';
export * from './labels.js';
export * from './provider-id.js';
export * from './retry.js';
