export * from './kubelet/index.js';
export * from './mock-instance.js';
export * from './polled-instance-source.js';
