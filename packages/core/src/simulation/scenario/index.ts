export * from './parse-scenario.js';
export * from './replica-schedule.js';
export * from './scenario-limits.js';
export * from './scenario-objects.js';
export * from './scenario-schema.js';
