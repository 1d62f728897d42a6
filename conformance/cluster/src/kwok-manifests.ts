import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE, type Stage } from './kwok-stages.js';

/** The kwok controller image run inside a container cluster; the same release the binary cluster builds. */
export const KWOK_IMAGE = 'registry.k8s.io/kwok/kwok:v0.8.0';
/** kwok's HTTP server (health, and the kubelet-like endpoints); kwok's documented default. */
export const KWOK_PORT = 10247;

/** A Kubernetes object to apply: enough typing to route it, the rest is free-form. */
export interface KubeManifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface KwokInClusterOptions {
  /** The Stage objects kwok plays, e.g. kwokStages(...) as the binary cluster uses. */
  stages: readonly Stage[];
  /** Default KWOK_IMAGE. */
  image?: string;
  /** Default kube-system. */
  namespace?: string;
  /** Pod IPs kwok hands out. Default 10.0.0.0/16, as the binary cluster. */
  podCidr?: string;
  /** Default 40, as the binary cluster. */
  nodeLeaseDurationSeconds?: number;
  /** Node taints the kwok Pod must tolerate to run on the cluster's own (tainted) node. */
  tolerateTaintKeys?: readonly string[];
}

/** Everything kwok needs in a cluster, grouped by the order they can be created in. */
export interface KwokInClusterManifests {
  /** The Stage CRD; must be Established before `stages` are created. */
  crd: KubeManifest;
  /** ServiceAccount, ClusterRole, ClusterRoleBinding. */
  rbac: KubeManifest[];
  stages: KubeManifest[];
  /** The controller; starts after the rest so it finds its stages at once. */
  deployment: KubeManifest;
}

const NAME = 'kwok-controller';
const LABELS = { 'app.kubernetes.io/name': NAME, 'app.kubernetes.io/managed-by': 'nodewright-conformance' };

const readWrite = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const read = ['get', 'list', 'watch'];

/**
 * What kwok reads and writes: it watches the Nodes it manages and writes only their status;
 * it plays Pods (status, and deletes those being deleted); renews node Leases; records
 * Events; reads its Stage objects (and reports their status).
 */
export function kwokClusterRoleRules(): { apiGroups: string[]; resources: string[]; verbs: string[] }[] {
  return [
    { apiGroups: [''], resources: ['nodes'], verbs: read },
    { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get', 'list', 'patch', 'update', 'watch'] },
    { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
    { apiGroups: [''], resources: ['events'], verbs: readWrite },
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      verbs: ['create', ...read, 'patch', 'update'],
    },
    { apiGroups: ['kwok.x-k8s.io'], resources: ['stages'], verbs: readWrite },
    { apiGroups: ['kwok.x-k8s.io'], resources: ['stages/status'], verbs: ['patch', 'update'] },
  ];
}

/**
 * The Stage CRD. The schema only asserts the envelope and keeps spec and status as given:
 * kwok itself decodes and checks the stages, and the binary cluster feeds it the same
 * objects from a file without any schema.
 */
export function kwokStageCrd(): KubeManifest {
  const free = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'stages.kwok.x-k8s.io', labels: LABELS },
    spec: {
      group: 'kwok.x-k8s.io',
      names: { kind: 'Stage', listKind: 'StageList', plural: 'stages', singular: 'stage' },
      scope: 'Cluster',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: free,
                status: free,
              },
            },
          },
        },
      ],
    },
  };
}

/** kwok's flags in the cluster: the same node selection, pod CIDR and lease as the binary cluster. */
export function kwokControllerArgs(options: { podCidr: string; nodeLeaseDurationSeconds: number }): string[] {
  return [
    `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
    // Stages come from the Stage objects, not a --config file (kwok refuses both at once).
    '--enable-crds=Stage',
    `--cidr=${options.podCidr}`,
    // Simulated nodes report the kwok Pod's address, where its kubelet-like server listens.
    '--node-ip=$(POD_IP)',
    `--node-port=${KWOK_PORT}`,
    `--server-address=0.0.0.0:${KWOK_PORT}`,
    `--node-lease-duration-seconds=${options.nodeLeaseDurationSeconds}`,
  ];
}

/** All objects that run kwok in a cluster, as pure data. */
export function kwokInClusterManifests(options: KwokInClusterOptions): KwokInClusterManifests {
  const namespace = options.namespace ?? 'kube-system';
  const probe = (periodSeconds: number, failureThreshold: number) => ({
    httpGet: { path: '/healthz', port: KWOK_PORT, scheme: 'HTTP' },
    initialDelaySeconds: 2,
    timeoutSeconds: 2,
    periodSeconds,
    failureThreshold,
  });
  const serviceAccount: KubeManifest = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: NAME, namespace, labels: LABELS },
  };
  const clusterRole: KubeManifest = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: NAME, labels: LABELS },
    rules: kwokClusterRoleRules(),
  };
  const clusterRoleBinding: KubeManifest = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: NAME, labels: LABELS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAME },
    subjects: [{ kind: 'ServiceAccount', name: NAME, namespace }],
  };
  const selector = { app: NAME };
  const deployment: KubeManifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NAME, namespace, labels: LABELS },
    spec: {
      replicas: 1,
      // Never two kwok controllers playing the same nodes.
      strategy: { type: 'Recreate' },
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { ...LABELS, ...selector } },
        spec: {
          serviceAccountName: NAME,
          // Critical priority is admitted only in kube-system.
          ...(namespace === 'kube-system' ? { priorityClassName: 'system-cluster-critical' } : {}),
          tolerations: (options.tolerateTaintKeys ?? []).map((key) => ({ key, operator: 'Exists' })),
          containers: [
            {
              name: NAME,
              image: options.image ?? KWOK_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              args: kwokControllerArgs({
                podCidr: options.podCidr ?? '10.0.0.0/16',
                nodeLeaseDurationSeconds: options.nodeLeaseDurationSeconds ?? 40,
              }),
              env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
              ports: [{ name: 'http', containerPort: KWOK_PORT, protocol: 'TCP' }],
              startupProbe: probe(5, 24),
              readinessProbe: probe(5, 3),
              livenessProbe: probe(30, 5),
            },
          ],
        },
      },
    },
  };
  return {
    crd: kwokStageCrd(),
    rbac: [serviceAccount, clusterRole, clusterRoleBinding],
    stages: options.stages.map((stage) => ({ ...stage, metadata: { ...stage.metadata, labels: LABELS } })),
    deployment,
  };
}
