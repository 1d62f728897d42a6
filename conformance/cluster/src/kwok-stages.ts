/**
 * The KWOK Stage objects that make simulated nodes and pods behave like kubelet-run ones.
 * kwok refuses to start without stages; these five cover what the autoscaler observes:
 * nodes turn Ready and keep a lease, bound pods run, Job pods finish, deleted pods go away.
 *
 * Each statusTemplate is a Go template rendered by kwok against the object (as JSON) and
 * yielding YAML for the status patch. Functions used are kwok's: Now, Quote, YAML,
 * NodeConditions, NodeIP, NodeIPWith, PodIPWith (plus sprig).
 */

/** The annotation the nodewright KWOK provider puts on the Nodes it creates. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
/** Its value on nodes kwok should manage. */
export const KWOK_NODE_ANNOTATION_VALUE = 'fake';

/** Capacity given to a Node created without any; large, so it never limits a test by accident. */
export const DEFAULT_NODE_CAPACITY = { cpu: '32', memory: '256Gi', pods: '110' } as const;

export interface StageOptions {
  /** Reported as the kubelet version of simulated nodes that do not set one. */
  kubeletVersion: string;
  /** Delay before a bound pod is reported Running (ms). */
  podReadyDelayMs: number;
  /** Delay before a running Job pod is reported Succeeded (ms). */
  podCompleteDelayMs: number;
  /** Lower bound of the interval between node status refreshes (ms); the lease is renewed separately. */
  nodeHeartbeatIntervalMs: number;
}

export const DEFAULT_STAGE_OPTIONS: Omit<StageOptions, 'kubeletVersion'> = {
  podReadyDelayMs: 0,
  podCompleteDelayMs: 1_000,
  nodeHeartbeatIntervalMs: 60_000,
};

/** A kwok.x-k8s.io/v1alpha1 Stage, reduced to the fields used here. */
export interface Stage {
  apiVersion: 'kwok.x-k8s.io/v1alpha1';
  kind: 'Stage';
  metadata: { name: string };
  spec: {
    resourceRef: { apiGroup: string; kind: 'Node' | 'Pod' };
    selector: { matchExpressions: MatchExpression[] };
    delay?: { durationMilliseconds: number; jitterDurationMilliseconds?: number };
    next: { statusTemplate?: string; delete?: boolean };
  };
}

interface MatchExpression {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

const readyStatus = '.status.conditions.[] | select( .type == "Ready" ) | .status';
const notDeleting: MatchExpression = { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' };

// Conditions, refreshed heartbeat, addresses kept when the creator set them.
const nodeLiveStatus = `{{ $now := Now }}
{{ $since := or .metadata.creationTimestamp $now }}
conditions:
{{ range NodeConditions }}
- type: {{ .type | Quote }}
  status: {{ .status | Quote }}
  reason: {{ .reason | Quote }}
  message: {{ .message | Quote }}
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $since | Quote }}
{{ end }}
addresses:
{{ with .status.addresses }}{{ YAML . 1 }}{{ else }}
- type: InternalIP
  address: {{ NodeIP | Quote }}
- type: Hostname
  address: {{ .metadata.name | Quote }}
{{ end }}
`;

function quantities(q: Readonly<Record<string, string>>): string {
  return Object.entries(q)
    .map(([name, value]) => `  ${name}: ${JSON.stringify(value)}`)
    .join('\n');
}

// Capacity the creator set wins (the provider writes the instance type's resources);
// allocatable falls back to capacity, as a kubelet without reservations reports it.
function nodeInitializeStatus(kubeletVersion: string): string {
  const fallback = quantities(DEFAULT_NODE_CAPACITY);
  return `${nodeLiveStatus}capacity:
{{ with .status.capacity }}{{ YAML . 1 }}{{ else }}
${fallback}
{{ end }}
allocatable:
{{ with .status.allocatable }}{{ YAML . 1 }}{{ else }}{{ with .status.capacity }}{{ YAML . 1 }}{{ else }}
${fallback}
{{ end }}{{ end }}
{{ $info := or .status.nodeInfo dict }}
{{ $arch := "amd64" }}{{ $os := "linux" }}
{{ with .metadata.labels }}
{{ with index . "kubernetes.io/arch" }}{{ $arch = . }}{{ end }}
{{ with index . "kubernetes.io/os" }}{{ $os = . }}{{ end }}
{{ end }}
nodeInfo:
  architecture: {{ or $info.architecture $arch | Quote }}
  operatingSystem: {{ or $info.operatingSystem $os | Quote }}
  kubeletVersion: {{ or $info.kubeletVersion ${JSON.stringify(kubeletVersion)} | Quote }}
  kubeProxyVersion: {{ or $info.kubeProxyVersion "" | Quote }}
  containerRuntimeVersion: {{ or $info.containerRuntimeVersion "kwok" | Quote }}
  kernelVersion: {{ or $info.kernelVersion "" | Quote }}
  osImage: {{ or $info.osImage "kwok" | Quote }}
  machineID: {{ or $info.machineID "" | Quote }}
  systemUUID: {{ or $info.systemUUID "" | Quote }}
  bootID: {{ or $info.bootID "" | Quote }}
phase: Running
`;
}

// Init containers run to completion first, except restartable ones (sidecars), which keep running.
const podRunningStatus = `{{ $now := Now }}
conditions:
{{ range list "PodScheduled" "Initialized" "ContainersReady" "Ready" }}
- type: {{ . }}
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
{{ end }}
{{ range .spec.readinessGates }}
- type: {{ .conditionType | Quote }}
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
{{ end }}
containerStatuses:
{{ range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  ready: true
  started: true
  restartCount: 0
  state:
    running:
      startedAt: {{ $now | Quote }}
{{ end }}
{{ with .spec.initContainers }}
initContainerStatuses:
{{ range . }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  restartCount: 0
  {{ if eq (or .restartPolicy "") "Always" }}
  ready: true
  started: true
  state:
    running:
      startedAt: {{ $now | Quote }}
  {{ else }}
  ready: true
  started: false
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $now | Quote }}
      finishedAt: {{ $now | Quote }}
  {{ end }}
{{ end }}
{{ end }}
hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
hostIPs:
- ip: {{ NodeIPWith .spec.nodeName | Quote }}
{{ $podIP := PodIPWith .spec.nodeName (or .spec.hostNetwork false) (or .metadata.uid "") .metadata.name .metadata.namespace }}
podIP: {{ $podIP | Quote }}
podIPs:
- ip: {{ $podIP | Quote }}
phase: Running
startTime: {{ $now | Quote }}
`;

const podSucceededStatus = `{{ $now := Now }}
{{ $started := or .status.startTime $now }}
conditions:
- type: Ready
  status: "False"
  reason: PodCompleted
  lastTransitionTime: {{ $now | Quote }}
- type: ContainersReady
  status: "False"
  reason: PodCompleted
  lastTransitionTime: {{ $now | Quote }}
containerStatuses:
{{ range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  ready: false
  started: false
  restartCount: 0
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $started | Quote }}
      finishedAt: {{ $now | Quote }}
{{ end }}
phase: Succeeded
`;

/** The five stages, in the order kwok should consider them. */
export function kwokStages(options: StageOptions): Stage[] {
  const node = { apiGroup: 'v1', kind: 'Node' } as const;
  const pod = { apiGroup: 'v1', kind: 'Pod' } as const;
  const heartbeat = options.nodeHeartbeatIntervalMs;
  return [
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'Stage',
      metadata: { name: 'node-initialize' },
      spec: {
        resourceRef: node,
        selector: { matchExpressions: [{ key: readyStatus, operator: 'NotIn', values: ['True'] }] },
        next: { statusTemplate: nodeInitializeStatus(options.kubeletVersion) },
      },
    },
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'Stage',
      metadata: { name: 'node-heartbeat-with-lease' },
      spec: {
        resourceRef: node,
        selector: {
          matchExpressions: [
            { key: '.status.phase', operator: 'In', values: ['Running'] },
            { key: readyStatus, operator: 'In', values: ['True'] },
          ],
        },
        // Liveness comes from the Lease kwok renews; this only keeps conditions fresh.
        delay: { durationMilliseconds: heartbeat, jitterDurationMilliseconds: heartbeat + heartbeat / 10 },
        next: { statusTemplate: nodeLiveStatus },
      },
    },
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'Stage',
      metadata: { name: 'pod-ready' },
      spec: {
        resourceRef: pod,
        selector: {
          matchExpressions: [
            notDeleting,
            { key: '.spec.nodeName', operator: 'Exists' },
            { key: '.status.phase', operator: 'In', values: ['Pending'] },
            { key: readyStatus, operator: 'NotIn', values: ['True'] },
          ],
        },
        ...(options.podReadyDelayMs > 0 ? { delay: { durationMilliseconds: options.podReadyDelayMs } } : {}),
        next: { statusTemplate: podRunningStatus },
      },
    },
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'Stage',
      metadata: { name: 'pod-complete' },
      spec: {
        resourceRef: pod,
        selector: {
          matchExpressions: [
            notDeleting,
            { key: '.status.phase', operator: 'In', values: ['Running'] },
            { key: '.metadata.ownerReferences.[].kind', operator: 'In', values: ['Job'] },
          ],
        },
        delay: { durationMilliseconds: options.podCompleteDelayMs },
        next: { statusTemplate: podSucceededStatus },
      },
    },
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'Stage',
      metadata: { name: 'pod-delete' },
      spec: {
        resourceRef: pod,
        selector: { matchExpressions: [{ key: '.metadata.deletionTimestamp', operator: 'Exists' }] },
        // Like a kubelet confirming termination: the pod goes once its own finalizers are gone,
        // which kwok leaves to whoever added them.
        next: { delete: true },
      },
    },
  ];
}

/**
 * Renders stages as the multi-document file kwok's --config reads. Each document is JSON,
 * which is valid YAML, so no YAML serializer is needed.
 */
export function renderKwokConfig(stages: readonly Stage[]): string {
  return `${stages.map((stage) => JSON.stringify(stage, null, 2)).join('\n---\n')}\n`;
}
