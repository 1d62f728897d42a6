export * from './conflict.js';
export * from './label-keys.js';
export * from './node-selector.js';
export * from './requirement.js';
export * from './requirements.js';
