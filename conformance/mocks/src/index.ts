export * from './aws/index.js';
export * as gcp from './gcp/index.js';
