import { Labels, Taints } from '../../apis/labels.js';
import type { Taint } from '../../apis/v1/taint.js';
import type { Clock } from '../../clock/clock.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../kube/errors.js';
import { formatTime, type KubeObject, type UntypedObject } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { Nodes } from '../../kube/resource-types.js';
import { type LatencySpec, sampleLatency } from '../latency/latency.js';
import type { Random } from '../random/random.js';
import { type ErrorHandler, rethrowUncaught } from '../settle/settle.js';
import type { InstanceLifecycleListener, SimulatedInstance } from './instance.js';

/** Field manager of the Node writes the simulated kubelet makes. */
export const SIMULATED_KUBELET_MANAGER = 'kubelet';

/** What the simulated kubelet registers a Node with. */
export interface NodeForInstanceOptions {
  readonly nodeName: string;
  readonly now: number;
  /** Register with `karpenter.sh/unregistered:NoExecute`, as Karpenter's bootstrap makes kubelet do. */
  readonly unregisteredTaint: boolean;
}

/**
 * The Node a kubelet on this instance registers: the claim's resolved labels plus the hostname,
 * the providerID, the claim's taints and startup taints (and the unregistered taint), the
 * instance type's capacity and allocatable, and a Ready condition.
 */
export function nodeForInstance(instance: SimulatedInstance, options: NodeForInstanceOptions): UntypedObject {
  const claim = instance.nodeClaim;
  const taints: Taint[] = [];
  if (options.unregisteredTaint) taints.push({ ...Taints.Unregistered });
  for (const t of [...(claim.spec.taints ?? []), ...(claim.spec.startupTaints ?? [])]) {
    if (!taints.some((have) => have.key === t.key && have.effect === t.effect)) taints.push({ ...t });
  }
  const at = formatTime(options.now);
  const labels: Record<string, string> = {
    ...(claim.metadata.labels ?? {}),
    [Labels.Hostname]: options.nodeName,
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: options.nodeName, labels },
    spec: { providerID: instance.providerID, ...(taints.length > 0 ? { taints } : {}) },
    status: {
      capacity: { ...(claim.status?.capacity ?? {}) },
      allocatable: { ...(claim.status?.allocatable ?? {}) },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
      ],
      nodeInfo: {
        architecture: labels[Labels.Arch] ?? 'amd64',
        operatingSystem: labels[Labels.OS] ?? 'linux',
        kubeletVersion: 'v1.34.0-sim',
      },
    },
  };
}

/** How the simulated kubelet behaves. */
export interface KubeletNodeRegistrarOptions {
  readonly cluster: ClusterPort;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly random: Random;
  /** From launch to the Node object appearing (Ready). Default 0. */
  readonly bootDelay?: LatencySpec;
  /** From registration until whatever runs on the node removes the claim's startup taints. Default 0. */
  readonly startupTaintRemovalDelay?: LatencySpec;
  /** Register with the `karpenter.sh/unregistered` taint. Default true. */
  readonly unregisteredTaint?: boolean;
  /** The Node's name; default the NodeClaim's name (as KWOK does). */
  readonly nodeName?: (instance: SimulatedInstance) => string;
  readonly onError?: ErrorHandler;
}

/**
 * The built-in registration of the simulated cloud: a kubelet per instance that creates the
 * instance's Node after a boot delay, later drops the startup taints (standing in for the agent
 * that would), and deletes the Node once the instance is terminated (as the cloud node
 * lifecycle controller does; finalizers on the Node still hold it until released).
 *
 * A Node whose name is still taken (an older Node not yet deleted) is not registered; the
 * claim then times out in registration as it would on a real cluster.
 */
export class KubeletNodeRegistrar implements InstanceLifecycleListener {
  readonly #o: KubeletNodeRegistrarOptions;
  readonly #onError: ErrorHandler;
  readonly #pending = new Map<string, Cancel>();
  readonly #names = new Map<string, string>();

  constructor(options: KubeletNodeRegistrarOptions) {
    this.#o = options;
    this.#onError = options.onError ?? rethrowUncaught;
  }

  launched(instance: SimulatedInstance): void {
    const name = this.#o.nodeName?.(instance) ?? instance.nodeClaimName;
    this.#names.set(instance.id, name);
    const delay = sampleLatency(this.#o.bootDelay ?? 0, this.#o.random);
    this.#pending.set(
      instance.id,
      this.#o.timers.after(delay, () => {
        this.#pending.delete(instance.id);
        this.#register(instance, name).catch(this.#onError);
      }),
    );
  }

  terminated(instance: SimulatedInstance): void {
    this.#pending.get(instance.id)?.();
    this.#pending.delete(instance.id);
    const name = this.#names.get(instance.id);
    this.#names.delete(instance.id);
    if (name === undefined) return;
    this.#deregister(name, instance.providerID).catch(this.#onError);
  }

  async #register(instance: SimulatedInstance, name: string): Promise<void> {
    const node = nodeForInstance(instance, {
      nodeName: name,
      now: this.#o.clock.now(),
      unregisteredTaint: this.#o.unregisteredTaint ?? true,
    });
    try {
      await this.#o.cluster.create<KubeObject>(Nodes, node, { fieldManager: SIMULATED_KUBELET_MANAGER });
    } catch (err) {
      if (isAlreadyExists(err)) return;
      throw err;
    }
    const startup = instance.nodeClaim.spec.startupTaints ?? [];
    if (startup.length === 0) return;
    const delay = sampleLatency(this.#o.startupTaintRemovalDelay ?? 0, this.#o.random);
    this.#pending.set(
      instance.id,
      this.#o.timers.after(delay, () => {
        this.#pending.delete(instance.id);
        this.#removeStartupTaints(name, instance.providerID, startup).catch(this.#onError);
      }),
    );
  }

  async #removeStartupTaints(name: string, providerID: string, startup: readonly Taint[]): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      let node: UntypedObject;
      try {
        node = await this.#o.cluster.get<UntypedObject>(Nodes, { name });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      const spec = (node.spec ?? {}) as { providerID?: string; taints?: Taint[] };
      if (spec.providerID !== providerID) return;
      const taints = spec.taints ?? [];
      const kept = taints.filter((t) => !startup.some((s) => s.key === t.key && s.effect === t.effect));
      if (kept.length === taints.length) return;
      try {
        await this.#o.cluster.patch(
          Nodes,
          { name },
          { spec: { taints: kept } },
          { resourceVersion: node.metadata.resourceVersion ?? '', fieldManager: SIMULATED_KUBELET_MANAGER },
        );
        return;
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
    }
  }

  async #deregister(name: string, providerID: string): Promise<void> {
    try {
      const node = await this.#o.cluster.get<UntypedObject>(Nodes, { name });
      if ((node.spec as { providerID?: string } | undefined)?.providerID !== providerID) return;
      await this.#o.cluster.delete(Nodes, { name }, { preconditions: { uid: node.metadata.uid ?? '' } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }
}
