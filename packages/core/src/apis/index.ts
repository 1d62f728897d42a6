export * from './kind.js';
export * from './labels.js';
