export * from './static-prices.js';
