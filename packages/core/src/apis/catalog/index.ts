export * from './instance-type-catalog.js';
