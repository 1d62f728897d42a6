export * from './catalog.js';
export * from './instance-facts.js';
