export * from './provider.js';
export * from './retail-prices.js';
export * from './static-prices.js';
