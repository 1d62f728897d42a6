/**
 * The environment variable that stands for each `nodewright controller` flag when the flag is
 * not given. Where Karpenter has the setting, the name is Karpenter's (METRICS_PORT, LOG_LEVEL,
 * ...), so a Karpenter Deployment's `env:` carries over; the rest are NODEWRIGHT_-prefixed.
 * Aliases share their flag's variable. A flag on the command line wins over its variable.
 */
export const ControllerFlagEnv = {
  provider: 'NODEWRIGHT_PROVIDER',
  kubeconfig: 'KUBECONFIG',
  'cluster-name': 'CLUSTER_NAME',
  'metrics-port': 'METRICS_PORT',
  'health-port': 'HEALTH_PROBE_PORT',
  'health-probe-port': 'HEALTH_PROBE_PORT',
  'bind-address': 'NODEWRIGHT_BIND_ADDRESS',
  'leader-elect': 'LEADER_ELECT',
  'disable-leader-election': 'DISABLE_LEADER_ELECTION',
  'leader-election-namespace': 'LEADER_ELECTION_NAMESPACE',
  'leader-election-id': 'LEADER_ELECTION_NAME',
  'leader-election-name': 'LEADER_ELECTION_NAME',
  identity: 'NODEWRIGHT_IDENTITY',
  'install-crds': 'NODEWRIGHT_INSTALL_CRDS',
  'log-level': 'LOG_LEVEL',
  'log-format': 'LOG_FORMAT',
  'batch-idle-duration': 'BATCH_IDLE_DURATION',
  'batch-max-duration': 'BATCH_MAX_DURATION',
  'run-beside-karpenter': 'NODEWRIGHT_RUN_BESIDE_KARPENTER',
  'karpenter-lease': 'NODEWRIGHT_KARPENTER_LEASE',
  'kube-request-timeout': 'NODEWRIGHT_KUBE_REQUEST_TIMEOUT',
  'kube-list-timeout': 'NODEWRIGHT_KUBE_LIST_TIMEOUT',
  'reconcile-timeout': 'NODEWRIGHT_RECONCILE_TIMEOUT',
} as const;

export type ControllerFlagName = keyof typeof ControllerFlagEnv;
