export * from './container.js';
export * from './controllers.js';
export * from './crds/index.js';
export * from './http/index.js';
export * from './leader-election/index.js';
export * from './operator.js';
export * from './plugin/index.js';
export * from './runtime/index.js';
