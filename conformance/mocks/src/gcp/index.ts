export {
  ComputeState,
  DefaultGceTimings,
  type GceTimings,
  type MockInstance,
  type MockOperation,
} from './compute/state.js';
export * from './faults/faults.js';
export * from './gcp-mock.js';
export * from './instances/mock-instances.js';
export * from './seed/index.js';
