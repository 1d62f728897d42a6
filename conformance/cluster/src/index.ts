export { type AppliedObject, applyManifest, FIELD_MANAGER, objectPath } from './apply.js';
export { buildScriptPath, type EnsureBinariesOptions, ensureBinaries } from './binaries.js';
export { type ClusterHandle, type StartClusterOptions, startCluster } from './cluster.js';
export {
  CLUSTER_TARGET_VARIABLE,
  CLUSTER_TARGETS,
  type ClusterTarget,
  KUBECONFIG_VARIABLE,
  type StartedClusterTarget,
  selectClusterTarget,
} from './cluster-target.js';
export { COMPONENTS, type ComponentName } from './components.js';
export { killOnProcessEnd, type ProcessEvents } from './exit-hooks.js';
export {
  KIND_NODE_TAINT,
  type KindClusterHandle,
  type StartKindClusterOptions,
  startKindCluster,
} from './kind-cluster.js';
export { KubeHttpClient, type KubeResponse, type RequestOptions } from './kube-http.js';
export {
  type ClusterConnection,
  connectionFromKubeconfig,
  kubeconfigBaseDir,
  renderKubeconfig,
} from './kubeconfig.js';
export { KWOK_IMAGE, type KwokInClusterManifests, kwokInClusterManifests } from './kwok-manifests.js';
export { DEFAULT_NODE_CAPACITY, KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './kwok-stages.js';
export type { LaunchedCluster } from './launched-cluster.js';
export { loadKubeconfig } from './load-kubeconfig.js';
export type { PidRecord, ProcessProbe, RecordedProcess } from './pid-record.js';
export { PidRecordFile, type ProcessRegistry } from './pid-record-file.js';
export { freePorts } from './ports.js';
export { procfsProbe } from './processes.js';
export {
  type ServiceAccountKubeconfigInput,
  serviceAccountKubeconfig,
} from './service-account-kubeconfig.js';
export { PID_RECORD_FILE, type SweepResult, sweepStaleClusters } from './stale-clusters.js';
export { type StartTargetOptions, startClusterTarget, type TargetStarters } from './start-target.js';
