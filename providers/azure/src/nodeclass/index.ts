export * from './image-resolver.js';
export * from './images.js';
export * from './reader.js';
export * from './status-controller.js';
