export * from './apis/index.js';
export * from './catalog/index.js';
export * from './pricing/index.js';
