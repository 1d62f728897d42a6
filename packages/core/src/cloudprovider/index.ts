export * from './cloud-provider.js';
export * from './errors.js';
export * from './instance-type.js';
export * from './launch-options.js';
export * from './metrics-decorator.js';
export * from './node-class-name.js';
export * from './offering.js';
export * from './unavailable-offerings.js';
