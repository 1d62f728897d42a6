export * from './compute-api.js';
// gce-sdk.js imports @google-cloud/compute only when gceSdk() runs, so exporting it keeps the SDK
// out of the load path of anything that merely imports this package.
export { GceRequestTimeoutMs, type GceSdkOptions, gceSdk, toGceApiError } from './gce-sdk.js';
export * from './permissions.js';
