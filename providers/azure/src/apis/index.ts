export * from './aksnodeclass.js';
export * from './examples.js';
export * from './hash.js';
export * from './kind.js';
export * from './kubelet.js';
export * from './rule-cases.js';
export * from './tags.js';
