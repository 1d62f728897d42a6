export * from './binder/index.js';
export * from './kubelet/index.js';
export * from './object-cache.js';
export * from './reconcile-queue.js';
export * from './workloads/index.js';
