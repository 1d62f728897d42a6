import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { LabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Toleration } from '../../apis/kubernetes/taint.js';
import { Quantity } from '../quantity/quantity.js';
import { Requirements } from '../requirements/requirements.js';
import {
  addResources,
  maxResources,
  parseResourceList,
  type ResourceList,
} from '../resources/resource-list.js';
import type { VolumeIndex } from '../volumes/volume-topology.js';
import { volumeTopology } from '../volumes/volume-topology.js';

/**
 * The checker's own reading of pods, written apart from the solver's so a shared mistake is less
 * likely: requests, node requirement alternatives, tolerations, host ports.
 */

function containerRequests(c: {
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}) {
  const req = new Map(parseResourceList(c.resources?.requests));
  for (const [k, v] of parseResourceList(c.resources?.limits)) if (!req.has(k)) req.set(k, v);
  return req;
}

/** Kubernetes' PodRequests plus one `pods`. */
export function requestsOf(pod: Pod): ResourceList {
  const spec = pod.spec;
  let sum: ResourceList = new Map();
  for (const c of spec.containers) sum = addResources(sum, containerRequests(c));
  let running: ResourceList = new Map();
  let peak: ResourceList = new Map();
  for (const c of spec.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      sum = addResources(sum, r);
      running = addResources(running, r);
      peak = maxResources(peak, running);
    } else {
      peak = maxResources(peak, addResources(running, r));
    }
  }
  const total = new Map(maxResources(sum, peak));
  const level = spec.resources;
  for (const name of ['cpu', 'memory']) {
    const q = level?.requests?.[name] ?? level?.limits?.[name];
    if (q !== undefined) total.set(name, Quantity.parse(q));
  }
  return addResources(total, parseResourceList(spec.overhead), new Map([['pods', Quantity.fromUnits(1)]]));
}

/** The pod's node affinity as kube-scheduler reads it: nodeSelector AND one required term. */
export function affinityTermsOf(pod: Pod): Requirements[] {
  const selector = Requirements.fromLabels(pod.spec.nodeSelector);
  const required =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return required === undefined || required.length === 0
    ? [selector]
    : required.map((t) =>
        selector.copy().addAll(Requirements.fromNodeSelectorRequirements(t.matchExpressions)),
      );
}

/** Every way the pod's node constraints can hold: nodeSelector AND one required term AND one volume alternative. */
export function nodeTermsOf(pod: Pod, volumes: VolumeIndex): Requirements[] {
  const terms = affinityTermsOf(pod);
  const vt = volumeTopology(pod, volumes);
  if (!vt.ok) return terms;
  let out = terms;
  for (const v of vt.requirements) out = out.flatMap((t) => v.alternatives.map((a) => t.copy().addAll(a)));
  return out;
}

interface TaintLike {
  readonly key: string;
  readonly value?: string | undefined;
  readonly effect: string;
}

function tolerates(t: Toleration, taint: TaintLike): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false;
  if ((t.key ?? '') !== '' && t.key !== taint.key) return false;
  return t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '');
}

/** The first NoSchedule/NoExecute taint the pod does not tolerate (PreferNoSchedule is only a preference). */
export function blockingTaint(pod: Pod, taints: readonly TaintLike[]): TaintLike | undefined {
  return taints.find(
    (taint) =>
      taint.effect !== 'PreferNoSchedule' && !(pod.spec.tolerations ?? []).some((t) => tolerates(t, taint)),
  );
}

/** Whether a DaemonSet's pods would run on a node of these taints and requirements. */
export function daemonFits(
  ds: DaemonSet,
  taints: readonly TaintLike[],
  reqs: Requirements,
  allowUndefined: boolean,
): boolean {
  const spec = ds.spec.template.spec;
  const tolerations: Toleration[] = [
    ...(spec.tolerations ?? []),
    { operator: 'Exists', effect: 'PreferNoSchedule' },
  ];
  if (taints.some((taint) => !tolerations.some((t) => tolerates(t, taint)))) return false;
  const selector = Requirements.fromLabels(spec.nodeSelector);
  const required =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const terms =
    required === undefined || required.length === 0
      ? [selector]
      : required.map((t) =>
          selector.copy().addAll(Requirements.fromNodeSelectorRequirements(t.matchExpressions)),
        );
  const allow = allowUndefined ? { allowUndefined: new Set(WELL_KNOWN) } : undefined;
  return terms.some((t) => reqs.isCompatible(t, allow));
}

/** Well-known labels a NodeClaim may lack until its instance type is chosen. */
export const WELL_KNOWN = [
  'karpenter.sh/nodepool',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'karpenter.sh/capacity-type',
  'node.kubernetes.io/windows-build',
];

export interface Port {
  readonly ip: string;
  readonly port: number;
  readonly protocol: string;
}

/** Host ports of app and sidecar containers. */
export function portsOf(spec: Pod['spec']): Port[] {
  const containers = [
    ...spec.containers,
    ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  return containers.flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => (p.hostPort ?? 0) > 0)
      .map((p) => ({ ip: p.hostIP ?? '', port: p.hostPort!, protocol: p.protocol ?? 'TCP' })),
  );
}

export function portsClash(a: Port, b: Port): boolean {
  const any = (ip: string) => ip === '' || ip === '0.0.0.0' || ip === '::';
  return a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || any(a.ip) || any(b.ip));
}

/** A selector with the pod's values for matchLabelKeys (In) and mismatchLabelKeys (NotIn). */
export function selectorWithKeys(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
  match: readonly string[] | undefined,
  mismatch: readonly string[] | undefined,
): LabelSelector | undefined {
  if (selector === undefined) return undefined;
  const extra = [
    ...(match ?? [])
      .filter((k) => labels?.[k] !== undefined)
      .map((k) => ({ key: k, operator: 'In' as const, values: [labels![k]!] })),
    ...(mismatch ?? [])
      .filter((k) => labels?.[k] !== undefined)
      .map((k) => ({ key: k, operator: 'NotIn' as const, values: [labels![k]!] })),
  ];
  return extra.length === 0
    ? selector
    : { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
}
