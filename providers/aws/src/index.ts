export * from './apis/index.js';
export * from './conversion/index.js';
export * from './ports.js';
export * from './sdk/index.js';
