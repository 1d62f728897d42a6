export * from './kind.js';
