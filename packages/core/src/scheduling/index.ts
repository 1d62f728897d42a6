export * from './quantity/index.js';
export * from './requirements/index.js';
export * from './resources/index.js';
export * from './solver/types.js';
