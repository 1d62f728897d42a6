export * from './aws/index.js';
