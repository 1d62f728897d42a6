export * from './catalog-provider.js';
export * from './generate.js';
export * from './overhead.js';
export * from './provider.js';
