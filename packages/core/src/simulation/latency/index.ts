export * from './latency.js';
