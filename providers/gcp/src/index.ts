export * from './apis/index.js';
