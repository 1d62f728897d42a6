export * from './create-provider.js';
export * from './plugin.js';
export * from './settings.js';
