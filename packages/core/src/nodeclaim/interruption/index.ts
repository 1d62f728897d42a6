export * from './interruption-action.js';
export * from './interruption-controller.js';
