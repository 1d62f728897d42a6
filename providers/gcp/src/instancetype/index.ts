export * from './build.js';
export * from './capacity.js';
export * from './facts.js';
export * from './labels.js';
export * from './machine-types.js';
export * from './overhead.js';
export * from './provider.js';
export * from './requirements.js';
