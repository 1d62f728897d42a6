export * from './candidates.js';
export * from './capacity-errors.js';
export * from './custom-data.js';
export * from './launcher.js';
export * from './names.js';
export * from './ssh-key.js';
export * from './tags.js';
