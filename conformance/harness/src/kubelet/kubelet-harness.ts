import type { Cancel, Timers } from '@nodewright/core/clock';
import { type ClusterPort, isAlreadyExists, isNotFound, type KubeObject, Nodes } from '@nodewright/core/kube';
import type { MockInstance, MockInstanceSource } from '../mock-instance.js';
import { nodeRegistration } from './node-manifest.js';

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
}

interface Tracked {
  latest: MockInstance;
  /** The Node's name once registered or adopted. */
  nodeName: string | undefined;
  bootTimer: Cancel | undefined;
  /** The boot delay has passed. */
  booted: boolean;
  retryTimer: Cancel | undefined;
  /** Serialises this instance's API calls. */
  work: Promise<void>;
}

interface NodeLike extends KubeObject {
  readonly spec?: { readonly providerID?: string };
}

/**
 * Plays kubelet for a mock cloud: every instance that runs gets a Node (see nodeRegistration)
 * once `bootDelayMs` has passed since the harness first saw it, and loses it when the
 * instance is terminated. Idempotent and restartable: Nodes that already carry an instance's
 * providerID are adopted, not recreated, and a Node that exists under the instance's name is
 * left as it is. Failed calls are reported to `onError` and retried while they still apply.
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
      if (tracked.nodeName !== undefined) this.#enqueue(tracked, () => this.#deregister(tracked));
      return;
    }
    if (state === 'stopping' || tracked.nodeName !== undefined) return;
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

  #enqueue(tracked: Tracked, call: () => Promise<void>): void {
    tracked.work = tracked.work.then(async () => {
      if (this.#stopped) return;
      try {
        await call();
      } catch (error) {
        this.#deps.onError?.(error, tracked.latest);
        tracked.retryTimer?.();
        tracked.retryTimer = this.#deps.timers.after(this.#deps.retryDelayMs ?? 1000, () => {
          tracked.retryTimer = undefined;
          this.#reconcile(tracked);
        });
      }
    });
  }

  async #register(tracked: Tracked): Promise<void> {
    // Re-checked inside the queue: a terminate or an earlier register may have run meanwhile.
    if (tracked.nodeName !== undefined || tracked.latest.state !== 'running') return;
    const { node, status } = nodeRegistration(tracked.latest);
    const { cluster } = this.#deps;
    const key = { name: node.metadata.name };
    try {
      await cluster.create(Nodes, node, { fieldManager: this.#manager });
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      // A Node of that name exists (a restarted harness, or our own create whose status
      // report failed): kubelet adopts it, reporting its status only if none is there yet.
      const existing = await cluster.get<NodeLike & { status?: { capacity?: object } }>(Nodes, key);
      if (existing.status?.capacity !== undefined) {
        tracked.nodeName = key.name;
        return;
      }
    }
    await cluster.patchStatus(Nodes, key, { status }, { fieldManager: this.#manager });
    tracked.nodeName = key.name;
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
    this.#existing.delete(tracked.latest.providerID);
  }
}
