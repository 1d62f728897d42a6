export * from './aws-clients.js';
export * from './aws-cloud-provider.js';
export * from './create-provider.js';
export * from './nodeclass-reader.js';
export * from './plugin.js';
export * from './repair-policies.js';
export * from './settings.js';
