export * from './provider-plugin.js';
