export * from './apis/index.js';
export * from './catalog/index.js';
export * from './cloudprovider/index.js';
export * from './controllers/index.js';
export * from './faults/index.js';
export * from './plugin/index.js';

/** The plug-in object (`--provider kwok`, `--provider-module @nodewright/kwok`). */
export { kwokProviderPlugin as default } from './plugin/plugin.js';
