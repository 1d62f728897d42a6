export * from './derive.js';
export * from './go-tables.js';
export * from './instance-types-md.js';
