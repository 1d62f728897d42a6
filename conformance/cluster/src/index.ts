export { buildScriptPath, type EnsureBinariesOptions, ensureBinaries } from './binaries.js';
export { type ClusterHandle, type StartClusterOptions, startCluster } from './cluster.js';
export { COMPONENTS, type ComponentName } from './components.js';
export { KubeHttpClient, type KubeResponse, type RequestOptions } from './kube-http.js';
export {
  type ClusterConnection,
  connectionFromKubeconfig,
  kubeconfigBaseDir,
  renderKubeconfig,
} from './kubeconfig.js';
export { DEFAULT_NODE_CAPACITY, KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './kwok-stages.js';
export { loadKubeconfig } from './load-kubeconfig.js';
