export * from './drift.js';
