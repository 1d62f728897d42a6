export * from './mock-instance.js';
