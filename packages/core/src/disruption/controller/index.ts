export * from './disruption-controller.js';
export * from './events.js';
export * from './metrics.js';
