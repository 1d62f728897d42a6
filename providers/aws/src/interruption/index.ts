export * from './messages.js';
export * from './sqs-source.js';
