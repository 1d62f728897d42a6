export * from './catalog.js';
export * from './data.js';
export * from './source/index.js';
