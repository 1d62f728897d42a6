export * from './closest.js';
export * from './schema-keys.js';
