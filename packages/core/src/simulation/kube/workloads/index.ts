export * from './common.js';
export * from './daemonset-controller.js';
export * from './deployment-controller.js';
export * from './job-controller.js';
export * from './replicaset-controller.js';
export * from './workload-controllers.js';
