export * from './generate.js';
export * from './overhead.js';
export * from './provider.js';
