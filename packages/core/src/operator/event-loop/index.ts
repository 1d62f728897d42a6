export * from './event-loop-delay.js';
