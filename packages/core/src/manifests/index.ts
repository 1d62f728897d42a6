export * from './decode.js';
export * from './format.js';
export * from './manifest.js';
export * from './node-fs.js';
export * from './parse.js';
export * from './read.js';
