export * from './cloud/index.js';
export * from './environment/index.js';
export * from './kube/index.js';
export * from './latency/index.js';
export * from './random/index.js';
export * from './runner/index.js';
export * from './scenario/index.js';
export * from './settle/index.js';
