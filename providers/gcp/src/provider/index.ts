export * from './create-provider.js';
export * from './gcp-cloud-provider.js';
export * from './nodeclass-reader.js';
export * from './plugin.js';
export * from './settings.js';
