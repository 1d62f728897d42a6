export * from './catalog/index.js';
