export * from './aws/index.js';
export * from './azure/index.js';
export * as gcp from './gcp/index.js';
