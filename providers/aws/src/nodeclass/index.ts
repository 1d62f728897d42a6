export * from './aliases.js';
export * from './amis.js';
export * from './facts.js';
export * from './filters.js';
export * from './instance-profile.js';
export * from './resolver.js';
export * from './status.js';
export * from './status-controller.js';
