export * from './http-server.js';
export * from './routes.js';
