export * from './catalog.js';
export * from './machine-types.js';
