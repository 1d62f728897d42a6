export * from './clause-report.js';
export * from './record-clauses.js';
