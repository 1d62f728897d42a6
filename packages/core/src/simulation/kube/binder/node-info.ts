import type { Node } from '../../../apis/kubernetes/node.js';
import type { NodeTaint } from '../../../apis/kubernetes/taint.js';
import { Requirements } from '../../../scheduling/requirements/requirements.js';
import { parseResourceList, type ResourceList } from '../../../scheduling/resources/resource-list.js';
import type { PodInfo } from './pod-info.js';

/** The taint the node lifecycle controller puts on a node that is not Ready. */
export const NotReadyTaint: NodeTaint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
/** The taint kubectl cordon's `spec.unschedulable` stands for. */
export const UnschedulableTaint: NodeTaint = {
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
};

/**
 * A node with the pods bound to it, as kube-scheduler's NodeInfo: the sums of their requests
 * (exact, in nano-units) and of their scoring requests, and their host ports. Terminal pods are
 * never added; terminating ones are, since they hold resources until they are gone.
 */
export class NodeInfo {
  readonly name: string;
  node: Node | undefined;
  allocatable: ResourceList = new Map();
  labelRequirements: Requirements = new Requirements();
  readonly pods = new Map<string, PodInfo>();
  readonly requested = new Map<string, bigint>();
  nonZeroMilliCpu = 0n;
  nonZeroMemory = 0n;
  /** Bumped on every change to the node or its pods, so a verdict on it can tell it is stale. */
  version = 0;

  constructor(name: string) {
    this.name = name;
  }

  setNode(node: Node | undefined): void {
    this.version++;
    this.node = node;
    const status = node?.status;
    this.allocatable = parseResourceList(status?.allocatable ?? status?.capacity);
    this.labelRequirements = Requirements.fromLabels(node?.metadata.labels);
  }

  /**
   * Another NodeInfo of the same node and pods, sharing the parsed allocatable and labels (never
   * mutated): pods placed on the copy leave this one as it was, without parsing the node again.
   */
  copy(): NodeInfo {
    const c = new NodeInfo(this.name);
    c.node = this.node;
    c.allocatable = this.allocatable;
    c.labelRequirements = this.labelRequirements;
    for (const [key, info] of this.pods) c.pods.set(key, info);
    for (const [name, q] of this.requested) c.requested.set(name, q);
    c.nonZeroMilliCpu = this.nonZeroMilliCpu;
    c.nonZeroMemory = this.nonZeroMemory;
    return c;
  }

  get labels(): Readonly<Record<string, string>> {
    return this.node?.metadata.labels ?? {};
  }

  /** Ready condition True. */
  get ready(): boolean {
    return this.node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  }

  /** The node's taints plus the one the node lifecycle controller would add when it is not Ready. */
  effectiveTaints(): NodeTaint[] {
    const taints = [...(this.node?.spec?.taints ?? [])];
    if (!this.ready && !taints.some((t) => t.key === NotReadyTaint.key)) taints.push(NotReadyTaint);
    return taints;
  }

  add(info: PodInfo): void {
    this.remove(info.key);
    this.version++;
    this.pods.set(info.key, info);
    for (const [name, q] of info.requests)
      this.requested.set(name, (this.requested.get(name) ?? 0n) + q.nanos);
    this.nonZeroMilliCpu += info.nonZeroMilliCpu;
    this.nonZeroMemory += info.nonZeroMemory;
  }

  remove(key: string): PodInfo | undefined {
    const info = this.pods.get(key);
    if (info === undefined) return undefined;
    this.version++;
    this.pods.delete(key);
    for (const [name, q] of info.requests)
      this.requested.set(name, (this.requested.get(name) ?? 0n) - q.nanos);
    this.nonZeroMilliCpu -= info.nonZeroMilliCpu;
    this.nonZeroMemory -= info.nonZeroMemory;
    return info;
  }
}
