export * from './apis/index.js';
export * from './catalog/index.js';
export * from './instancetype/index.js';
export * from './pricing/index.js';
export * from './refresh/index.js';
export * from './sdk/index.js';
