export * from './volume-topology.js';
