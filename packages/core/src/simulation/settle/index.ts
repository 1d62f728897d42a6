export * from './settle.js';
