export * from './aws-instance.js';
export * from './hydrate.js';
export * from './instances.js';
export * from './provider-id.js';
