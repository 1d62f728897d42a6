export * from './plugin/index.js';
export * from './runtime/index.js';
