export * from './images.js';
export * from './reader.js';
export * from './status-controller.js';
