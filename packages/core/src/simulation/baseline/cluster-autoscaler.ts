import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { PodDisruptionBudget } from '../../apis/kubernetes/pod-disruption-budget.js';
import { Annotations, Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { Clock } from '../../clock/clock.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import { isInsufficientCapacity } from '../../cloudprovider/errors.js';
import { isNotFound, isTooManyRequests } from '../../kube/errors.js';
import { isOwnedByDaemonSet, isPodTerminal } from '../../kube/pod.js';
import type { ClusterPort } from '../../kube/port.js';
import { Nodes, PodDisruptionBudgets, Pods } from '../../kube/resource-types.js';
import type { WatchEvent } from '../../kube/watch.js';
import { asPatch } from '../../lifecycle/patch.js';
import { formatResourceList } from '../../scheduling/resources/resource-list.js';
import type { SimulatedCloudProvider } from '../cloud/simulated-cloud-provider.js';
import { NodeInfo } from '../kube/binder/node-info.js';
import { type PodInfo, podInfoOf } from '../kube/binder/pod-info.js';
import { schedulePod } from '../kube/binder/schedule-pod.js';
import type { ErrorHandler } from '../settle/settle.js';
import type { NodeGroup } from './node-groups.js';

/**
 * Cluster Autoscaler's documented defaults (FAQ, kubernetes/autoscaler
 * cluster-autoscaler/FAQ.md, "What are the parameters to CA?" and "How does scale-down work?").
 */
export interface ClusterAutoscalerOptions {
  /** `--scan-interval`: "How often cluster is reevaluated for scale up or down", 10 s. */
  readonly scanIntervalMs?: number;
  /** `--scale-down-unneeded-time`: "How long a node should be unneeded before it is eligible for scale down", 10 min. */
  readonly scaleDownUnneededMs?: number;
  /** `--scale-down-delay-after-add`: "How long after scale up that scale down evaluation resumes", 10 min. */
  readonly scaleDownDelayAfterAddMs?: number;
  /**
   * `--scale-down-utilization-threshold`: "Sum of cpu or memory of all pods running on the node
   * divided by node's corresponding allocatable resource, below which a node can be considered
   * for scale down", 0.5 (the larger of the two ratios is compared).
   */
  readonly scaleDownUtilizationThreshold?: number;
  /** `--max-node-provision-time`: "Maximum time CA waits for node to be provisioned", 15 min. */
  readonly maxNodeProvisionMs?: number;
  /** `--initial-node-group-backoff-duration` after a failed scale-up, 5 min. */
  readonly nodeGroupBackoffMs?: number;
  /** `--max-graceful-termination-sec`: how long a drain waits for pods to go, 10 min. */
  readonly maxGracefulTerminationMs?: number;
}

/**
 * Cluster Autoscaler's documented defaults, each under its flag's name (README.md beside this
 * file lists them with their source; a test holds the two together). Every option left out of
 * ClusterAutoscalerOptions takes its value from here.
 */
export const ClusterAutoscalerDefaults = {
  scanIntervalMs: 10_000,
  scaleDownUnneededMs: 600_000,
  scaleDownDelayAfterAddMs: 600_000,
  scaleDownUtilizationThreshold: 0.5,
  maxNodeProvisionMs: 900_000,
  nodeGroupBackoffMs: 300_000,
  maxGracefulTerminationMs: 600_000,
} as const satisfies Required<ClusterAutoscalerOptions>;

/** What the simulated Cluster Autoscaler is built from. */
export interface ClusterAutoscalerDependencies {
  readonly cluster: ClusterPort;
  readonly provider: SimulatedCloudProvider;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly groups: readonly NodeGroup[];
  readonly onError: ErrorHandler;
}

/** CA's taint on a node it drains (`ToBeDeletedByClusterAutoscaler`). */
export const ToBeDeletedTaint = 'ToBeDeletedByClusterAutoscaler';
/** CA's pod annotation that, set to "false", keeps a node from scale-down. */
export const SafeToEvictAnnotation = 'cluster-autoscaler.kubernetes.io/safe-to-evict';

interface Upcoming {
  readonly group: NodeGroup;
  readonly since: number;
  readonly providerID: string;
}

interface Drain {
  readonly node: string;
  readonly providerID: string;
  readonly since: number;
}

/** The count of pods a scale-down evicted (each eviction the API server accepted). */
export const EvictedCount = 'pods-evicted';

/** What the autoscaler did, by kind: scale-ups, nodes added, scale-downs, blocked drains, evictions, failures. */
export type ClusterAutoscalerCounts = Map<string, number>;

/**
 * Why CA removes a node, as the `reason` of its `scaled_down_nodes_total`: `empty` when only
 * DaemonSet pods run there, else `underutilized` (CA's third, `unready`, is not modelled).
 */
export type ScaleDownReason = 'empty' | 'underutilized';

const isActive = (p: Pod) =>
  p.status?.phase !== 'Succeeded' &&
  p.status?.phase !== 'Failed' &&
  p.metadata.deletionTimestamp === undefined;
const isUnschedulable = (p: Pod) =>
  !p.spec.nodeName &&
  p.metadata.deletionTimestamp === undefined &&
  (p.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
const cpuOf = (i: PodInfo) => i.nonZeroMilliCpu;

/**
 * A Cluster Autoscaler over fixed node groups, on the simulated clock: every scan interval it
 * scales up for pods kube-scheduler marked Unschedulable (pods that fit on nodes still booting are
 * not counted), estimating per group by binning the pods onto template nodes with the same
 * scheduler filters the simulated kube-scheduler uses, and picking a group by the `least-waste`
 * expander (least idle CPU after scale-up, ties by idle memory, then the cheaper option, then group order); a failed launch backs
 * the group off. Otherwise, once no scale-up happened for the delay after add, it removes one
 * node at a time that has been under the utilisation threshold for the unneeded time, whose
 * pods are all movable (no `safe-to-evict: "false"` or `karpenter.sh/do-not-disrupt: "true"`, PDBs
 * allowing them) and fit on the other nodes: taint, evict through the Eviction API (a refusal
 * aborts the drain), wait for the pods to go, terminate the instance.
 *
 * Not modelled: node-group min sizes above 0, the balance-similar-node-groups and priority
 * expanders, bulk deletion of empty nodes, scale-down of nodes with local storage or bare pods,
 * pod priority cut-off and preemption, zone balancing inside a group (the cloud picks the
 * cheapest zone).
 */
export class ClusterAutoscalerSimulator {
  readonly counts: ClusterAutoscalerCounts = new Map();
  /** Nodes whose scale-down went ahead (tainted, every eviction accepted), by ScaleDownReason. */
  readonly disruptions = new Map<ScaleDownReason, number>();
  /** Scale-downs begun, by `delete/<ScaleDownReason>`, including those a PDB then refused. */
  readonly decisions = new Map<string, number>();
  readonly #deps: ClusterAutoscalerDependencies;
  readonly #scan: number;
  readonly #unneededMs: number;
  readonly #delayAfterAdd: number;
  readonly #threshold: number;
  readonly #provisionMs: number;
  readonly #backoffMs: number;
  readonly #graceMs: number;
  readonly #upcoming = new Map<string, Upcoming>();
  readonly #members = new Map<string, NodeGroup>();
  readonly #unneeded = new Map<string, number>();
  readonly #backoff = new Map<string, number>();
  #drain: Drain | undefined;
  #lastScaleUp = Number.NEGATIVE_INFINITY;
  #seq = 0;
  #timer: Cancel | undefined;
  // Informer caches, as CA's own: listing every object every scan would cost more than the rest.
  readonly #nodes = new Map<string, Node>();
  readonly #pods = new Map<string, Pod>();
  readonly #pdbs = new Map<string, PodDisruptionBudget>();
  // Derived once per object (the informer hands out the same frozen object until it changes):
  // re-parsing every pod's quantities and every node's allocatable each 10 s scan was most of a
  // day's simulation.
  readonly #podInfos = new WeakMap<Pod, PodInfo>();
  readonly #emptyNodes = new WeakMap<Node, NodeInfo>();
  #watches: (() => void)[] = [];
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(deps: ClusterAutoscalerDependencies, options: ClusterAutoscalerOptions = {}) {
    this.#deps = deps;
    const o = { ...ClusterAutoscalerDefaults, ...options };
    this.settings = o;
    this.#scan = o.scanIntervalMs;
    this.#unneededMs = o.scaleDownUnneededMs;
    this.#delayAfterAdd = o.scaleDownDelayAfterAddMs;
    this.#threshold = o.scaleDownUtilizationThreshold;
    this.#provisionMs = o.maxNodeProvisionMs;
    this.#backoffMs = o.nodeGroupBackoffMs;
    this.#graceMs = o.maxGracefulTerminationMs;
  }

  /** The settings in force: the options given, the rest ClusterAutoscalerDefaults. */
  readonly settings: Required<ClusterAutoscalerOptions>;

  #scans = 0;

  /** Scans run so far (CA's reconcile loop), for benchmarks. */
  get scans(): number {
    return this.#scans;
  }

  /** Starts the scan loop (the first scan one interval from now). */
  start(): void {
    this.#stopped = false;
    const { cluster } = this.#deps;
    const keep =
      <T extends { metadata: { name?: string; namespace?: string } }>(into: Map<string, T>) =>
      (e: WatchEvent) => {
        if (e.type === 'ERROR') return;
        const o = e.object as T;
        const key = `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
        if (e.type === 'DELETED') into.delete(key);
        else into.set(key, o);
      };
    this.#watches = [
      cluster.watch(Nodes, keep(this.#nodes)),
      cluster.watch(Pods, keep(this.#pods)),
      cluster.watch(PodDisruptionBudgets, keep(this.#pdbs)),
    ].map((w) => () => w.stop());
    this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.();
    for (const stop of this.#watches.splice(0)) stop();
  }

  /** Resolves when the scan in progress (if any) has finished. */
  settled(): Promise<void> {
    return this.#running;
  }

  #arm(): void {
    if (this.#stopped) return;
    this.#timer = this.#deps.timers.after(this.#scan, () => {
      this.#scans++;
      this.#running = this.#loop()
        .catch(this.#deps.onError)
        .finally(() => this.#arm());
    });
  }

  #count(what: string, n = 1): void {
    increment(this.counts, what, n);
  }

  async #loop(): Promise<void> {
    const now = this.#deps.clock.now();
    const nodes = [...this.#nodes.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const pods = [...this.#pods.values()];
    const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
    for (const [name, u] of [...this.#upcoming]) {
      if (byName.has(name)) this.#upcoming.delete(name);
      else if (now - u.since >= this.#provisionMs) {
        // Never registered: CA gives the node up and backs the group off.
        this.#upcoming.delete(name);
        this.#members.delete(name);
        await this.#terminate(name, u.providerID);
        this.#backoff.set(u.group.name, now + this.#backoffMs);
        this.#count('provision-timeout');
      }
    }
    const infos = new Map<string, NodeInfo>();
    for (const n of nodes) infos.set(n.metadata.name, this.#emptyNode(n).copy());
    for (const p of pods) {
      if (!p.spec.nodeName || isPodTerminal(p)) continue;
      infos.get(p.spec.nodeName)?.add(this.#podInfo(p));
    }
    const pending = pods.filter(isUnschedulable).map((p) => this.#podInfo(p));
    pending.sort((a, b) => (cpuOf(b) > cpuOf(a) ? 1 : cpuOf(b) < cpuOf(a) ? -1 : a.key.localeCompare(b.key)));
    if (pending.length > 0 && (await this.#scaleUp(pending, now))) return;
    if (this.#drain !== undefined) return this.#continueDrain(this.#drain, pods, now);
    await this.#scaleDown(nodes, pods, infos, now);
  }

  /** @throws ResourceListError for a request that is not a quantity (not remembered). */
  #podInfo(pod: Pod): PodInfo {
    let info = this.#podInfos.get(pod);
    if (info === undefined) {
      info = podInfoOf(pod);
      this.#podInfos.set(pod, info);
    }
    return info;
  }

  /** The node without pods; copied before pods are added. */
  #emptyNode(node: Node): NodeInfo {
    let info = this.#emptyNodes.get(node);
    if (info === undefined) {
      info = new NodeInfo(node.metadata.name);
      info.setNode(node);
      this.#emptyNodes.set(node, info);
    }
    return info;
  }

  // ---- scale-up ----

  async #scaleUp(pending: readonly PodInfo[], now: number): Promise<boolean> {
    // Pods that fit on nodes already booting will land there; only the rest need new nodes.
    const booting = [...this.#upcoming.entries()].map(([name, u]) => this.#templateNode(u.group, name));
    const remaining = pending.filter((p) => !this.#place(p, booting, undefined));
    if (remaining.length === 0) return false;
    let best:
      | { group: NodeGroup; count: number; helped: number; idleCpu: number; idleMem: number; price: number }
      | undefined;
    for (const group of this.#deps.groups) {
      if ((this.#backoff.get(group.name) ?? 0) > now) continue;
      const room = group.maxSize - this.#size(group);
      if (room <= 0) continue;
      const templates: NodeInfo[] = [];
      let helped = 0;
      for (const pod of remaining) {
        if (
          this.#place(
            pod,
            templates,
            templates.length < room ? () => this.#templateNode(group, `t${templates.length}`) : undefined,
          )
        )
          helped++;
      }
      if (templates.length === 0) continue;
      let reqCpu = 0;
      let reqMem = 0;
      for (const t of templates) {
        reqCpu += Number(t.requested.get('cpu') ?? 0n) / 1e9;
        reqMem += Number(t.requested.get('memory') ?? 0n) / 1e9;
      }
      const allocCpu = (group.instanceType.allocatable.get('cpu')?.toNumber() ?? 0) * templates.length;
      const allocMem = (group.instanceType.allocatable.get('memory')?.toNumber() ?? 0) * templates.length;
      const idleCpu = allocCpu === 0 ? 1 : 1 - reqCpu / allocCpu;
      const idleMem = allocMem === 0 ? 1 : 1 - reqMem / allocMem;
      const price = cheapestPrice(group) * templates.length;
      const option = { group, count: templates.length, helped, idleCpu, idleMem, price };
      const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9;
      if (
        best === undefined ||
        idleCpu < best.idleCpu - 1e-9 ||
        (same(idleCpu, best.idleCpu) && idleMem < best.idleMem - 1e-9) ||
        // CA breaks a full tie at random; the cheaper option is what a cost-minded user would get.
        (same(idleCpu, best.idleCpu) && same(idleMem, best.idleMem) && price < best.price - 1e-12)
      )
        best = option;
    }
    if (best === undefined) {
      this.#count('scale-up-not-possible');
      return false;
    }
    let added = 0;
    for (let i = 0; i < best.count; i++) {
      const name = `${best.group.name}-${(++this.#seq).toString(36).padStart(5, '0')}`;
      try {
        const claim = await this.#deps.provider.create(this.#claim(best.group, name));
        this.#upcoming.set(name, {
          group: best.group,
          since: now,
          providerID: claim.status?.providerID ?? '',
        });
        this.#members.set(name, best.group);
        added++;
      } catch (err) {
        if (!isInsufficientCapacity(err)) throw err;
        this.#backoff.set(best.group.name, now + this.#backoffMs);
        this.#count('scale-up-failed');
        break;
      }
    }
    if (added > 0) {
      this.#lastScaleUp = now;
      this.#count('scale-up');
      this.#count('nodes-added', added);
    }
    return added > 0;
  }

  /** Places the pod on the first of `nodes` the scheduler would pick, or on a new one from `grow`. */
  #place(pod: PodInfo, nodes: NodeInfo[], grow: (() => NodeInfo) | undefined): boolean {
    const snapshot = { nodes, withAntiAffinity: [], namespaceLabels: () => undefined };
    const r = nodes.length === 0 ? undefined : schedulePod(pod, snapshot);
    if (r?.scheduled) {
      r.node.add(pod);
      return true;
    }
    if (grow === undefined) return false;
    const fresh = grow();
    const again = schedulePod(pod, { ...snapshot, nodes: [fresh] });
    if (!again.scheduled) return false;
    fresh.add(pod);
    nodes.push(fresh);
    return true;
  }

  #templateNode(group: NodeGroup, name: string): NodeInfo {
    const type = group.instanceType;
    const zone = type.offerings.find((o) => o.capacityType === group.capacityType)?.zone ?? '';
    const info = new NodeInfo(name);
    const alloc = formatResourceList(type.allocatable);
    info.setNode({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          ...type.requirements.labels(),
          ...group.labels,
          [Labels.InstanceType]: type.name,
          [Labels.CapacityType]: group.capacityType,
          [Labels.Zone]: zone,
          [Labels.Hostname]: name,
        },
      },
      spec: group.taints.length > 0 ? { taints: group.taints.map((t) => ({ ...t })) } : {},
      status: { allocatable: alloc, conditions: [{ type: 'Ready', status: 'True' }] },
    } as unknown as Node);
    return info;
  }

  #claim(group: NodeGroup, name: string): NodeClaim {
    return {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name, labels: { ...group.labels } },
      spec: {
        requirements: [
          { key: Labels.InstanceType, operator: 'In', values: [group.instanceType.name] },
          { key: Labels.CapacityType, operator: 'In', values: [group.capacityType] },
        ],
        nodeClassRef: { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass', name: 'default' },
        ...(group.taints.length > 0 ? { taints: group.taints.map((t) => ({ ...t })) } : {}),
      },
    } as unknown as NodeClaim;
  }

  #size(group: NodeGroup): number {
    let n = 0;
    for (const g of this.#members.values()) if (g === group) n++;
    return n;
  }

  // ---- scale-down ----

  async #scaleDown(nodes: readonly Node[], pods: readonly Pod[], infos: Map<string, NodeInfo>, now: number) {
    const members = nodes.filter((n) => this.#members.has(n.metadata.name));
    for (const n of members) {
      const info = infos.get(n.metadata.name)!;
      if (isUnneeded(info, this.#threshold)) {
        if (!this.#unneeded.has(n.metadata.name)) this.#unneeded.set(n.metadata.name, now);
      } else this.#unneeded.delete(n.metadata.name);
    }
    for (const name of [...this.#unneeded.keys()]) if (!this.#members.has(name)) this.#unneeded.delete(name);
    if (now - this.#lastScaleUp < this.#delayAfterAdd) return;
    const pdbs = [...this.#pdbs.values()];
    const candidates = members
      .filter((n) => now - (this.#unneeded.get(n.metadata.name) ?? now) >= this.#unneededMs)
      .sort(
        (a, b) =>
          utilisation(infos.get(a.metadata.name)!) - utilisation(infos.get(b.metadata.name)!) ||
          a.metadata.name.localeCompare(b.metadata.name),
      );
    for (const node of candidates) {
      const name = node.metadata.name;
      const group = this.#members.get(name)!;
      if (this.#size(group) <= group.minSize) continue;
      const moving = pods.filter((p) => p.spec.nodeName === name && isActive(p) && !isOwnedByDaemonSet(p));
      if (moving.some((p) => blocksScaleDown(p, pdbs))) {
        this.#count('scale-down-blocked');
        continue;
      }
      const others = [...infos.values()].filter(
        (i) => i.name !== name && !(i.node?.spec?.taints ?? []).some((t) => t.key === ToBeDeletedTaint),
      );
      // Copies: the move simulation must not touch the real picture.
      const targets = others.map((i) => i.copy());
      if (!moving.map((p) => this.#podInfo(p)).every((p) => this.#place(p, targets, undefined))) continue;
      await this.#startDrain(node, moving, now, moving.length === 0 ? 'empty' : 'underutilized');
      return;
    }
  }

  async #startDrain(node: Node, pods: readonly Pod[], now: number, reason: ScaleDownReason): Promise<void> {
    const { cluster } = this.#deps;
    increment(this.decisions, `delete/${reason}`);
    const name = node.metadata.name;
    const taints = [
      ...(node.spec.taints ?? []),
      { key: ToBeDeletedTaint, value: String(Math.floor(now / 1000)), effect: 'NoSchedule' },
    ];
    await cluster.patch(Nodes, { name }, asPatch({ spec: { taints } }));
    for (const p of pods) {
      try {
        await cluster.evict({ namespace: p.metadata.namespace ?? 'default', name: p.metadata.name ?? '' });
        this.#count(EvictedCount);
      } catch (err) {
        if (isNotFound(err)) continue;
        if (!isTooManyRequests(err)) throw err;
        // A PDB refused: CA gives this node up for now and untaints it.
        await cluster.patch(Nodes, { name }, asPatch({ spec: { taints: node.spec.taints ?? [] } }));
        this.#unneeded.delete(name);
        this.#count('scale-down-eviction-refused');
        return;
      }
    }
    this.#drain = { node: name, providerID: node.spec.providerID ?? '', since: now };
    increment(this.disruptions, reason);
  }

  async #continueDrain(drain: Drain, pods: readonly Pod[], now: number): Promise<void> {
    const left = pods.some(
      (p) =>
        p.spec.nodeName === drain.node &&
        !isOwnedByDaemonSet(p) &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    );
    if (left && now - drain.since < this.#graceMs) return;
    this.#drain = undefined;
    this.#members.delete(drain.node);
    this.#unneeded.delete(drain.node);
    await this.#terminate(drain.node, drain.providerID);
    this.#count('scale-down');
  }

  async #terminate(name: string, providerID: string): Promise<void> {
    try {
      await this.#deps.provider.delete({
        metadata: { name },
        status: { providerID },
      } as unknown as NodeClaim);
    } catch (err) {
      if (!isNotFound(err) && !(err instanceof Error && err.name === 'NodeClaimNotFoundError')) throw err;
    }
  }
}

function increment<K>(counts: Map<K, number>, key: K, n = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

function cheapestPrice(group: NodeGroup): number {
  const prices = group.instanceType.offerings
    .filter((o) => o.available && o.capacityType === group.capacityType)
    .map((o) => o.price);
  return prices.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...prices);
}

/** CA's utilisation of a node: the larger of requested/allocatable cpu and memory. */
export function utilisation(info: NodeInfo): number {
  const ratio = (r: string) => {
    const alloc = info.allocatable.get(r)?.toNumber() ?? 0;
    return alloc === 0 ? 0 : Number(info.requested.get(r) ?? 0n) / 1e9 / alloc;
  };
  return Math.max(ratio('cpu'), ratio('memory'));
}

/**
 * Whether CA counts the node unneeded: its utilisation strictly below the threshold (CA's FAQ:
 * "below which a node can be considered for scale down"), so a node at exactly 0.5 stays.
 */
export function isUnneeded(info: NodeInfo, threshold: number): boolean {
  return utilisation(info) < threshold;
}

/** Whether CA would refuse to move the pod: safe-to-evict "false", do-not-disrupt, a PDB at 0. */
export function blocksScaleDown(pod: Pod, pdbs: readonly PodDisruptionBudget[]): boolean {
  const a = pod.metadata.annotations ?? {};
  if (a[SafeToEvictAnnotation] === 'false' || a[Annotations.DoNotDisrupt] === 'true') return true;
  return pdbs.some(
    (b) =>
      (b.metadata.namespace ?? 'default') === (pod.metadata.namespace ?? 'default') &&
      b.spec.selector !== undefined &&
      matchesLabelSelector(b.spec.selector, pod.metadata.labels ?? {}) &&
      (b.status?.disruptionsAllowed ?? 0) <= 0,
  );
}
