export * from './http-server.js';
export * from './metrics-text.js';
export * from './routes.js';
