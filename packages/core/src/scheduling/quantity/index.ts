export * from './format.js';
export * from './parse.js';
export * from './quantity.js';
