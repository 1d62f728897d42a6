export * from './catalog.js';
export * from './catalog-providers.js';
export * from './machine-types.js';
