export * from './errors.js';
export * from './unavailable-offerings.js';
