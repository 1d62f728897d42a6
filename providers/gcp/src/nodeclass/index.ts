export * from './images.js';
export * from './status-controller.js';
