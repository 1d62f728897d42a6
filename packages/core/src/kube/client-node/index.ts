export * from './client-node-cluster.js';
export { clientNodeSubsetHooks } from './client-node-subset.js';
export { ClientNodeTransport } from './client-node-transport.js';
export { defaultKubeConfig, kubeConfigFromFile } from './kube-config.js';
export type { KubeLogger } from './logger.js';
export { silentLogger } from './logger.js';
export {
  DefaultKubeRequestTimeouts,
  KubeRequestTimeoutError,
  type KubeRequestTimeouts,
} from './request-deadline.js';
export { errorFromResponse, UnreachableError } from './response-errors.js';
export type { KubeRequest, KubeResponse, KubeTransport, StreamEvent } from './transport.js';
