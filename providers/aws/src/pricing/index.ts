export * from './price-list.js';
export * from './provider.js';
export * from './static-prices.js';
