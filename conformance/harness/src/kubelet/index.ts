export * from './kubelet-harness.js';
export * from './node-manifest.js';
