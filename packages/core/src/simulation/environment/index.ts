export * from './simulation-environment.js';
