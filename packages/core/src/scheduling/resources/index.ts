export * from './fits.js';
export * from './resource-list.js';
export * from './resource-vector.js';
