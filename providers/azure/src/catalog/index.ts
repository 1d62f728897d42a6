export * from './catalog.js';
export * from './sku-facts.js';
