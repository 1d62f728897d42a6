export * from './images.js';
export * from './machine-types.js';
export * from './skus.js';
