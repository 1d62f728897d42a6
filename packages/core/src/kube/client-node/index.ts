export type { BackoffPolicy } from './backoff.js';
export { DEFAULT_BACKOFF } from './backoff.js';
export * from './client-node-cluster.js';
export { ClientNodeTransport } from './client-node-transport.js';
export { defaultKubeConfig, kubeConfigFromFile } from './kube-config.js';
export type { KubeLogger } from './logger.js';
export { silentLogger } from './logger.js';
export { errorFromResponse, UnreachableError } from './response-errors.js';
export type { KubeRequest, KubeResponse, KubeTransport, StreamEvent } from './transport.js';
