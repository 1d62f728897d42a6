export * from './disruption-controller.js';
export * from './extensions.js';
export * from './id-generator.js';
export * from './memory-cluster.js';
