export * from './compute-api.js';
export type { GceSdkOptions } from './gce-sdk.js';
