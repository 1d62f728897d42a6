import { Taints } from '@nodewright/core/apis';
import { type Cancel, type Clock, SystemClock, type Timers } from '@nodewright/core/clock';
import { type ClusterPort, isAlreadyExists, isNotFound, type KubeObject, Nodes } from '@nodewright/core/kube';
import type { MockInstance, MockInstanceSource } from '../mock-instance.js';
import { KWOK_MANAGED_ANNOTATION, type NodeRegistration, nodeRegistration } from './node-manifest.js';

/** Everything a KubeletHarness works with. */
export interface KubeletHarnessDeps {
  /** Where Nodes are registered: a real API server or a MemoryCluster. */
  readonly cluster: ClusterPort;
  /** The mock cloud whose instances boot. */
  readonly source: MockInstanceSource;
  /** Boot delays and retries run on these, so tests step them. */
  readonly timers: Timers;
  /** How long an instance takes from first being seen (pending or running) to registering. */
  readonly bootDelayMs: number;
  /** Delay before a failed register or delete is tried again. Default 1000 ms. */
  readonly retryDelayMs?: number;
  /** Field manager of the harness's writes. Default `nodewright-kubelet-harness`. */
  readonly fieldManager?: string;
  /** Told about every failed API call (which is then retried); default: ignored. */
  readonly onError?: (error: unknown, instance: MockInstance) => void;
  /**
   * Plays a node agent DaemonSet (a GPU driver installer, a CNI) that takes its startup taint
   * off once it is ready: `afterMs` after the harness registers or adopts a Node, and once the
   * Node no longer carries karpenter.sh/unregistered (the agent's pod, not tolerating it, starts
   * only then), the taints with these keys are removed from it. Default: none removed, as with
   * no such DaemonSet.
   */
  readonly startupTaintRemoval?: StartupTaintRemoval;
  /**
   * Instances whose kubelet comes up broken and stays so (a dead container runtime): their Node
   * registers without the kwok annotation, so kwok does not make it Ready, and the harness
   * reports `Ready=False` itself, stamped with `clock`'s time. Default: none.
   */
  readonly holdNotReady?: (instance: MockInstance) => boolean;
  /** The time of the conditions `holdNotReady` reports; default the system clock. */
  readonly clock?: Clock;
}

/** Which startup taints a simulated DaemonSet removes, and how long after registration. */
export interface StartupTaintRemoval {
  /** Taint keys removed (every effect); taints with other keys are kept as they are. */
  readonly keys: readonly string[];
  /**
   * Delay from the Node's registration (or adoption) to the removal; while karpenter.sh/unregistered
   * is still there, the removal is tried again every `retryDelayMs`.
   */
  readonly afterMs: number;
}

interface Tracked {
  latest: MockInstance;
  /** The Node's name once registered or adopted. */
  nodeName: string | undefined;
  bootTimer: Cancel | undefined;
  /** The boot delay has passed. */
  booted: boolean;
  retryTimer: Cancel | undefined;
  /** Counts down to the startup taint removal once the Node is registered. */
  startupTaintTimer: Cancel | undefined;
  /** The startup taint removal is due (its delay has passed) and not yet done. */
  startupTaintsDue: boolean;
  /** The startup taints of the current Node are gone (removed, or never there). */
  startupTaintsRemoved: boolean;
  /** Serialises this instance's API calls. */
  work: Promise<void>;
}

interface NodeLike extends KubeObject {
  readonly spec?: { readonly providerID?: string; readonly taints?: readonly { readonly key: string }[] };
}

/**
 * Plays kubelet for a mock cloud: every instance that runs gets a Node (see nodeRegistration)
 * once `bootDelayMs` has passed since the harness first saw it, and loses it when the
 * instance is terminated. Idempotent and restartable: Nodes that already carry an instance's
 * providerID are adopted, not recreated, and a Node that exists under the instance's name is
 * left as it is. Failed calls are reported to `onError` and retried while they still apply.
 * With `startupTaintRemoval`, it also plays the DaemonSet that lifts a startup taint.
 */
export class KubeletHarness {
  readonly #deps: KubeletHarnessDeps;
  readonly #manager: string;
  readonly #tracked = new Map<string, Tracked>();
  /** providerID -> Node name, from the Nodes present at start. */
  readonly #existing = new Map<string, string>();
  #unsubscribe: (() => void) | undefined;
  #stopped = false;

  constructor(deps: KubeletHarnessDeps) {
    this.#deps = deps;
    this.#manager = deps.fieldManager ?? 'nodewright-kubelet-harness';
  }

  /** Reads the Nodes already registered (to adopt them), then follows the instance source. */
  async start(): Promise<void> {
    if (this.#unsubscribe) throw new Error('KubeletHarness already started');
    const nodes = await this.#deps.cluster.list<NodeLike>(Nodes);
    for (const node of nodes.items) {
      const providerID = node.spec?.providerID;
      const name = node.metadata.name;
      if (providerID && name) this.#existing.set(providerID, name);
    }
    this.#unsubscribe = this.#deps.source.watch((instance) => this.#observe(instance));
  }

  /** Stops following the source and cancels pending boots and retries; calls in flight finish. */
  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
    for (const tracked of this.#tracked.values()) {
      tracked.bootTimer?.();
      tracked.retryTimer?.();
      tracked.startupTaintTimer?.();
    }
  }

  /** Resolves when no API call is in flight (timers still pending are not waited for). */
  async settled(): Promise<void> {
    for (;;) {
      const work = [...this.#tracked.values()].map((t) => t.work);
      await Promise.all(work);
      if ([...this.#tracked.values()].every((t, i) => t.work === work[i])) return;
    }
  }

  /** Node name registered or adopted for a providerID, if any. */
  nodeNameOf(providerID: string): string | undefined {
    return this.#tracked.get(providerID)?.nodeName;
  }

  #observe(instance: MockInstance): void {
    if (this.#stopped) return;
    let tracked = this.#tracked.get(instance.providerID);
    if (!tracked) {
      tracked = {
        latest: instance,
        nodeName: this.#existing.get(instance.providerID),
        bootTimer: undefined,
        booted: false,
        retryTimer: undefined,
        startupTaintTimer: undefined,
        startupTaintsDue: false,
        startupTaintsRemoved: false,
        work: Promise.resolve(),
      };
      this.#tracked.set(instance.providerID, tracked);
    }
    tracked.latest = instance;
    this.#reconcile(tracked);
  }

  #reconcile(tracked: Tracked): void {
    if (this.#stopped) return;
    const { state } = tracked.latest;
    if (state === 'terminated') {
      tracked.bootTimer?.();
      tracked.bootTimer = undefined;
      tracked.startupTaintTimer?.();
      tracked.startupTaintTimer = undefined;
      tracked.startupTaintsDue = false;
      if (tracked.nodeName !== undefined) this.#enqueue(tracked, () => this.#deregister(tracked));
      return;
    }
    if (tracked.nodeName !== undefined) {
      this.#reconcileStartupTaints(tracked);
      return;
    }
    if (state === 'stopping') return;
    if (!tracked.booted) {
      // Pending counts as booting: the delay models the OS and kubelet start-up.
      tracked.bootTimer ??= this.#deps.timers.after(this.#deps.bootDelayMs, () => {
        tracked.bootTimer = undefined;
        tracked.booted = true;
        this.#reconcile(tracked);
      });
      return;
    }
    if (state === 'running') this.#enqueue(tracked, () => this.#register(tracked));
  }

  /** Once a Node is there: start its removal delay, or remove the taints when it has passed. */
  #reconcileStartupTaints(tracked: Tracked): void {
    const removal = this.#deps.startupTaintRemoval;
    if (!removal || tracked.startupTaintsRemoved) return;
    if (tracked.startupTaintsDue) {
      this.#enqueue(tracked, () => this.#removeStartupTaints(tracked, removal.keys));
      return;
    }
    tracked.startupTaintTimer ??= this.#deps.timers.after(removal.afterMs, () => {
      tracked.startupTaintTimer = undefined;
      tracked.startupTaintsDue = true;
      this.#reconcile(tracked);
    });
  }

  #enqueue(tracked: Tracked, call: () => Promise<void>): void {
    tracked.work = tracked.work.then(async () => {
      if (this.#stopped) return;
      try {
        await call();
      } catch (error) {
        this.#deps.onError?.(error, tracked.latest);
        this.#reconcileLater(tracked);
      }
    });
  }

  /** Reconciles again after the retry delay (replacing a pending retry). */
  #reconcileLater(tracked: Tracked): void {
    tracked.retryTimer?.();
    tracked.retryTimer = this.#deps.timers.after(this.#deps.retryDelayMs ?? 1000, () => {
      tracked.retryTimer = undefined;
      this.#reconcile(tracked);
    });
  }

  async #register(tracked: Tracked): Promise<void> {
    // Re-checked inside the queue: a terminate or an earlier register may have run meanwhile.
    if (tracked.nodeName !== undefined || tracked.latest.state !== 'running') return;
    const registration = nodeRegistration(tracked.latest);
    const { node, status } = this.#deps.holdNotReady?.(tracked.latest)
      ? notReady(registration, (this.#deps.clock ?? new SystemClock()).now())
      : registration;
    const { cluster } = this.#deps;
    const key = { name: node.metadata.name };
    try {
      await cluster.create<KubeObject>(Nodes, node, { fieldManager: this.#manager });
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      // A Node of that name exists (a restarted harness, or our own create whose status
      // report failed): kubelet adopts it, reporting its status only if none is there yet.
      const existing = await cluster.get<NodeLike & { status?: { capacity?: object } }>(Nodes, key);
      if (existing.status?.capacity !== undefined) {
        tracked.nodeName = key.name;
        this.#reconcileStartupTaints(tracked);
        return;
      }
    }
    await cluster.patchStatus(Nodes, key, { status }, { fieldManager: this.#manager });
    tracked.nodeName = key.name;
    this.#reconcileStartupTaints(tracked);
  }

  async #removeStartupTaints(tracked: Tracked, keys: readonly string[]): Promise<void> {
    const name = tracked.nodeName;
    if (name === undefined || !tracked.startupTaintsDue || tracked.startupTaintsRemoved) return;
    const { cluster } = this.#deps;
    let node: NodeLike;
    try {
      node = await cluster.get<NodeLike>(Nodes, { name });
    } catch (error) {
      // Gone (its instance terminating): nothing left to untaint.
      if (!isNotFound(error)) throw error;
      tracked.startupTaintsDue = false;
      tracked.startupTaintsRemoved = true;
      return;
    }
    const taints = node.spec?.taints ?? [];
    // Before registration the agent's pod cannot run; lifted earlier, the registration
    // controller's taint sync would put the startup taint back.
    if (taints.some((t) => t.key === Taints.Unregistered.key)) {
      this.#reconcileLater(tracked);
      return;
    }
    const kept = taints.filter((t) => !keys.includes(t.key));
    if (kept.length < taints.length) {
      // Taints are one list in a merge patch: the resourceVersion makes a concurrent change (the
      // registration controller lifting karpenter.sh/unregistered) a Conflict, retried on a fresh
      // read, rather than something this write would undo.
      await cluster.patch(
        Nodes,
        { name },
        { spec: { taints: kept } },
        {
          fieldManager: this.#manager,
          ...(node.metadata.resourceVersion ? { resourceVersion: node.metadata.resourceVersion } : {}),
        },
      );
    }
    tracked.startupTaintsDue = false;
    tracked.startupTaintsRemoved = true;
  }

  async #deregister(tracked: Tracked): Promise<void> {
    const name = tracked.nodeName;
    if (name === undefined) return;
    try {
      await this.#deps.cluster.delete(Nodes, { name });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    tracked.nodeName = undefined;
    tracked.startupTaintsRemoved = false;
    this.#existing.delete(tracked.latest.providerID);
  }
}

/** The registration of a kubelet that came up broken: no kwok annotation, Ready=False since `now`. */
function notReady(registration: NodeRegistration, now: number): NodeRegistration {
  const { [KWOK_MANAGED_ANNOTATION.key]: _kwok, ...annotations } = registration.node.metadata.annotations;
  const since = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    node: { ...registration.node, metadata: { ...registration.node.metadata, annotations } },
    status: {
      ...registration.status,
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'container runtime network not ready (held by the kubelet harness)',
          lastHeartbeatTime: since,
          lastTransitionTime: since,
        },
      ],
    },
  };
}
