export * from './zone-operations.js';
