export * from './karpenter-guard.js';
