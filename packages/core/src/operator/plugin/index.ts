export * from './plugin-shape.js';
export * from './provider-plugin.js';
