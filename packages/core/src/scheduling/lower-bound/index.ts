export * from './lower-bound.js';
