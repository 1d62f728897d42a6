export * from './nodeclass-status.js';
