export * from './counts.js';
export * from './fleet-sample.js';
export * from './percentiles.js';
export * from './run-simulation.js';
export * from './scenario-cloud.js';
export * from './scenario-driver.js';
