export * from './drift-verdict.js';
export * from './nodeclaim-disruption-controller.js';
export * from './static-drift.js';
