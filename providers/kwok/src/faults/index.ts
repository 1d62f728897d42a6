export * from './interruptions.js';
export * from './kwok-faults.js';
