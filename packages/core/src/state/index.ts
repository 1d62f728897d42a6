export * from './capacity.js';
export * from './cluster-state.js';
export * from './cluster-state-controller.js';
export * from './metrics.js';
export * from './nodepool-usability.js';
export * from './nominations.js';
export * from './pod-role.js';
export * from './snapshot.js';
