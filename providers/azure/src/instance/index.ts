export * from './hydrate.js';
export * from './instances.js';
export * from './provider-id.js';
