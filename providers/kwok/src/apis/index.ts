export * from './hash.js';
export * from './kind.js';
export * from './kwoknodeclass.js';
export * from './resource-type.js';
