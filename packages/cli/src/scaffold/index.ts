export * from './provider-names.js';
export * from './provider-package.js';
export * from './provider-template.js';
export * from './write-provider.js';
