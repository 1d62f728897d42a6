export * from './arm-error.js';
export * from './arm-retry.js';
export * from './permissions.js';
export type * from './ports.js';
