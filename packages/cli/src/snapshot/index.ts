export * from './build-snapshot.js';
export * from './capacity.js';
export * from './catalogs.js';
export * from './claim-json.js';
export * from './pod-role.js';
export * from './schedule-report.js';
