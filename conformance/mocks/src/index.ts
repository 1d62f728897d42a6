export * from './aws/index.js';
export * from './azure/index.js';
