export * from './quantity/index.js';
export * from './resources/index.js';
