export * from './apis/index.js';
export * from './catalog/index.js';
export * from './instancetype/index.js';
export * from './logger.js';
export * from './pricing/index.js';
export * from './sdk/index.js';
