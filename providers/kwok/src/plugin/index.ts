export * from './plugin.js';
export * from './settings.js';
