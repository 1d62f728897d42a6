import { join } from 'node:path';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './kwok-stages.js';

/** The processes of the control plane, in start order. */
export const COMPONENTS = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
] as const;
export type ComponentName = (typeof COMPONENTS)[number];

/** Loopback ports, one per listener; chosen free at start so clusters can run side by side. */
export interface ClusterPorts {
  etcdClient: number;
  etcdPeer: number;
  apiServer: number;
  controllerManager: number;
  scheduler: number;
  kwok: number;
}

/** Everything the command lines depend on; files are absolute paths. */
export interface ControlPlaneLayout {
  binDir: string;
  etcdDataDir: string;
  caCertFile: string;
  /** One certificate serves as API server serving cert, admin client cert and (its key) SA key. */
  adminCertFile: string;
  adminKeyFile: string;
  kubeconfigFile: string;
  kwokConfigFile: string;
  ports: ClusterPorts;
  serviceClusterIpRange: string;
  podCidr: string;
  /** kwok renews node Leases of this duration; KCM's grace period must not be shorter. */
  nodeLeaseDurationSeconds: number;
  nodeMonitorGracePeriodSeconds: number;
  /** Which Nodes kwok simulates: those carrying the KWOK annotation, or all. */
  kwokManages: 'annotated' | 'all';
  /** Appended to a component's flags (later flags win), e.g. feature gates. */
  extraArgs: Partial<Record<ComponentName, readonly string[]>>;
}

/** A process to start: its binary, flags and the check that says it is up. */
export interface ComponentPlan {
  name: ComponentName;
  binary: string;
  args: string[];
  health: { url: string; tls: 'client-cert' | 'insecure' | 'none' };
}

const loopback = '127.0.0.1';
const http = (port: number): string => `http://${loopback}:${port}`;
const https = (port: number): string => `https://${loopback}:${port}`;

/** The flags of every component, in start order. Pure: derived from the layout alone. */
export function componentPlans(layout: ControlPlaneLayout): ComponentPlan[] {
  const p = layout.ports;
  const kubeconfig = layout.kubeconfigFile;
  // Delegated authn/authz for the components' own endpoints; without them they log
  // warnings and refuse authenticated requests to /metrics.
  const delegated = [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    `--bind-address=${loopback}`,
    '--leader-elect=false',
  ];
  const plans: ComponentPlan[] = [
    {
      name: 'etcd',
      binary: join(layout.binDir, 'etcd'),
      args: [
        '--name=nodewright',
        `--data-dir=${layout.etcdDataDir}`,
        // Test data is disposable; fsync dominates etcd latency on shared CI disks.
        '--unsafe-no-fsync=true',
        `--listen-client-urls=${http(p.etcdClient)}`,
        `--advertise-client-urls=${http(p.etcdClient)}`,
        `--listen-peer-urls=${http(p.etcdPeer)}`,
        `--initial-advertise-peer-urls=${http(p.etcdPeer)}`,
        `--initial-cluster=nodewright=${http(p.etcdPeer)}`,
        '--initial-cluster-state=new',
      ],
      health: { url: `${http(p.etcdClient)}/health`, tls: 'none' },
    },
    {
      name: 'kube-apiserver',
      binary: join(layout.binDir, 'kube-apiserver'),
      args: [
        `--etcd-servers=${http(p.etcdClient)}`,
        `--bind-address=${loopback}`,
        `--advertise-address=${loopback}`,
        `--secure-port=${p.apiServer}`,
        '--authorization-mode=Node,RBAC',
        `--client-ca-file=${layout.caCertFile}`,
        `--tls-cert-file=${layout.adminCertFile}`,
        `--tls-private-key-file=${layout.adminKeyFile}`,
        `--service-account-key-file=${layout.adminKeyFile}`,
        `--service-account-signing-key-file=${layout.adminKeyFile}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-cluster-ip-range=${layout.serviceClusterIpRange}`,
        // No kubelets or endpoints to reconcile: the apiserver is reached on loopback only.
        '--endpoint-reconciler-type=none',
        '--allow-privileged=true',
        // Publishes a front-proxy CA so components that read extension-apiserver-authentication
        // stop logging its absence; no client carries the allowed name, so none may proxy.
        `--requestheader-client-ca-file=${layout.caCertFile}`,
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
      health: { url: `${https(p.apiServer)}/readyz`, tls: 'client-cert' },
    },
    {
      name: 'kube-controller-manager',
      binary: join(layout.binDir, 'kube-controller-manager'),
      args: [
        ...delegated,
        `--secure-port=${p.controllerManager}`,
        `--root-ca-file=${layout.caCertFile}`,
        `--service-account-private-key-file=${layout.adminKeyFile}`,
        `--node-monitor-grace-period=${layout.nodeMonitorGracePeriodSeconds}s`,
        '--node-monitor-period=5s',
      ],
      // Components serve a self-signed certificate of their own; only liveness is checked.
      health: { url: `${https(p.controllerManager)}/healthz`, tls: 'insecure' },
    },
    {
      name: 'kube-scheduler',
      binary: join(layout.binDir, 'kube-scheduler'),
      args: [...delegated, `--secure-port=${p.scheduler}`],
      health: { url: `${https(p.scheduler)}/healthz`, tls: 'insecure' },
    },
    {
      name: 'kwok',
      binary: join(layout.binDir, 'kwok'),
      args: [
        `--kubeconfig=${kubeconfig}`,
        `--config=${layout.kwokConfigFile}`,
        layout.kwokManages === 'all'
          ? '--manage-all-nodes=true'
          : `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
        `--cidr=${layout.podCidr}`,
        `--node-ip=${loopback}`,
        `--node-lease-duration-seconds=${layout.nodeLeaseDurationSeconds}`,
        `--server-address=${loopback}:${p.kwok}`,
      ],
      health: { url: `${http(p.kwok)}/healthz`, tls: 'none' },
    },
  ];
  return plans.map((plan) => ({ ...plan, args: [...plan.args, ...(layout.extraArgs[plan.name] ?? [])] }));
}

/** Rejects layouts whose node liveness settings would flap nodes NotReady. */
export function validateLayout(layout: ControlPlaneLayout): void {
  if (layout.nodeMonitorGracePeriodSeconds < layout.nodeLeaseDurationSeconds) {
    throw new Error(
      `nodeMonitorGracePeriodSeconds (${layout.nodeMonitorGracePeriodSeconds}) is shorter than ` +
        `kwok's node lease (${layout.nodeLeaseDurationSeconds}s): nodes would turn NotReady between renewals`,
    );
  }
}
