export * from './eviction-watcher.js';
