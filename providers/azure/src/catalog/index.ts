export * from './catalog.js';
export * from './catalog-providers.js';
export * from './sku-facts.js';
