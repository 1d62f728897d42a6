export * from './apis/index.js';
export * from './cloud/index.js';
export * from './cloudprovider/index.js';
export * from './controllers/index.js';
export * from './plugin.js';
/** The plug-in object (`nodewright controller --provider-module <this package>`). */
export { providerPlugin as default } from './plugin.js';
export * from './provider-name.js';
