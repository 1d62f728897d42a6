export * from './convert-manifests.js';
export * from './converter.js';
export * as conversionJson from './json.js';
export * from './migration-hints.js';
export * from './nodepool-v1beta1.js';
