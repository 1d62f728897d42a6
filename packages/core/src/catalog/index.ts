export * from './catalog-entry.js';
export * from './catalog-instance-types.js';
export * from './catalog-problem.js';
export * from './catalog-provider.js';
export * from './combine-catalogs.js';
