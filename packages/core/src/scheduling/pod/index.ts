export * from './effective-zone.js';
export * from './host-ports.js';
export * from './identity.js';
export * from './node-requirements.js';
export * from './requests.js';
