export * from './crd-type.js';
export * from './established.js';
export * from './install-crds.js';
