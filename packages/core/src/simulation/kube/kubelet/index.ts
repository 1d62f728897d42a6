export * from './kubelet-simulator.js';
