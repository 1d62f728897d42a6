export * from './generate.js';
export * from './render.js';
export * from './structural.js';
