export * from './build.js';
export * from './facts.js';
export * from './labels.js';
export * from './overhead.js';
export * from './provider.js';
export * from './sku-name.js';
export * from './zones.js';
