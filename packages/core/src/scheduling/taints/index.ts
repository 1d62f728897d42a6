export * from './tolerations.js';
