export * from './builtin-providers.js';
export * from './not-installed.js';
export * from './provider-module.js';
export * from './provider-module-args.js';
export * from './provider-set.js';
