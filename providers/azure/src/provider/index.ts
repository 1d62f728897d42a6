export * from './azure-cloud-provider.js';
export * from './azure-provider-plugin.js';
export * from './plugin.js';
export * from './repair-policies.js';
export * from './settings.js';
