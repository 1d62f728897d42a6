export * from './builtin-providers.js';
export * from './provider-module.js';
export * from './provider-module-args.js';
export * from './provider-set.js';
