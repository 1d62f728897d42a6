export * from './kubelet/index.js';
export * from './mock-instance.js';
