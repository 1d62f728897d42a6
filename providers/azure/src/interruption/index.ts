export * from './eviction-watcher.js';
export * from './scheduled-events.js';
