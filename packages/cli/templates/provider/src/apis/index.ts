export * from './nodeclass.js';
