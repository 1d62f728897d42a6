export * from './apis/index.js';
export * from './conversion/index.js';
