export * from './bulk-insert.js';
export * from './gce-labels.js';
export * from './instance-resource.js';
export * from './launcher.js';
export * from './metadata.js';
export * from './operation-errors.js';
export * from './retry.js';
