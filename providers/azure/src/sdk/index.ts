export * from './arm-error.js';
export * from './permissions.js';
export type * from './ports.js';
