export * from './cloud-client.js';
export * from './wire.js';
