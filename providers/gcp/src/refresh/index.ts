export * from './logger.js';
export * from './periodic.js';
