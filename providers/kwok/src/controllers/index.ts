export * from './nodeclass-status-controller.js';
