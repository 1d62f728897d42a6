export * from './apis/index.js';
export * from './catalog/index.js';
export * from './drift/index.js';
export * from './instance/index.js';
export * from './instancetype/index.js';
export * from './interruption/index.js';
export * from './launch/index.js';
export * from './logger.js';
export * from './nodeclass/index.js';
export * from './pricing/index.js';
/** The plug-in object (`--provider azure`, `--provider-module @nodewright/azure`). */
export { azureProviderPlugin as default } from './provider/azure-provider-plugin.js';
export * from './provider/index.js';
export * from './sdk/index.js';
