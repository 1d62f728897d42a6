export * from './sku-facts.js';
