export * from './catalog/index.js';
export * from './common/index.js';
export * from './crd/index.js';
export * from './field-errors.js';
export * from './kind.js';
export * from './kubernetes/index.js';
export * from './labels.js';
export * from './v1/index.js';
