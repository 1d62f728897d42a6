export * from './components.js';
export * from './provider.js';
export * from './skus.js';
export * from './static-prices.js';
