import { durationMs, type NodeClaim, type NodePool } from '@nodewright/core/apis';
import type { Cancel, Clock, Timers } from '@nodewright/core/clock';
import {
  type CloudProvider,
  CreateError,
  type DriftReason,
  type InstanceType,
  InsufficientCapacityError,
  type LaunchOption,
  launchOptions,
  NodeClaimNotFoundError,
  type NodeClassKindRef,
  NodeClassNotReadyError,
  type RepairPolicy,
  UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import {
  type ClusterPort,
  isAlreadyExists,
  isNotFound,
  Nodes,
  type ResourceType,
} from '@nodewright/core/kube';
import type { ProviderContext } from '@nodewright/core/operator';
import {
  parseResourceList,
  RequirementError,
  Requirements,
  type ResourceList,
  ResourceListError,
} from '@nodewright/core/scheduling';
import { KWOKNodeClassAnnotations, kwokNodeClassHash } from '../apis/hash.js';
import {
  type KWOKNodeClass,
  KWOKNodeClassGroup,
  KWOKNodeClassKind,
  kwokNodeClassSchema,
} from '../apis/kwoknodeclass.js';
import { KWOKNodeClasses } from '../apis/resource-type.js';
import { KwokWellKnownLabels } from '../catalog/generate.js';
import { kwokInstanceTypes } from '../catalog/provider.js';
import type { KwokInterruptions } from '../faults/interruptions.js';
import { KwokFaults } from '../faults/kwok-faults.js';
import {
  hydratedClaim,
  isOwnedNode,
  type KwokNode,
  type LaunchDecision,
  nodeClaimView,
  nodeForLaunch,
} from './kwok-node.js';
import { KwokNodeLabels } from './labels.js';
import { nodeNameOf } from './provider-id.js';
import { type RetryOptions, withRetries } from './retry.js';

type Logger = ProviderContext['logger'];

const KwokNodes = Nodes as ResourceType<KwokNode>;

/** The NodeClass kind this provider resolves. */
export const KwokNodeClassRef: NodeClassKindRef = { group: KWOKNodeClassGroup, kind: KWOKNodeClassKind };

/** Field manager of the Node writes the provider makes (it plays the kubelet's part). */
export const KwokFieldManager = 'nodewright-kwok';

/** Drift reason when the KWOKNodeClass changed since the launch. */
export const NodeClassDrift: DriftReason = 'NodeClassDrift';

/** How long an offering refused for lack of capacity stays unavailable by default (as AWS's ICE cache). */
export const DefaultUnavailableOfferingsTtlMs = 3 * 60_000;

export interface KwokCloudProviderOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly timers: Timers;
  /** Names this cluster on the Nodes (the managed-by label), so `list` sees only its own. */
  readonly clusterName: string;
  /** Shared with core; launches that find no capacity mark offerings here. */
  readonly unavailableOfferings: UnavailableOfferingsCache;
  /** The catalog; default Karpenter's 144 KWOK types. */
  readonly instanceTypes?: readonly InstanceType[];
  readonly faults?: KwokFaults;
  readonly interruptions?: KwokInterruptions;
  /** Retry of throttled (429) and failed (5xx) cluster calls. */
  readonly retry?: RetryOptions;
  readonly unavailableOfferingsTtlMs?: number;
  readonly repairPolicies?: readonly RepairPolicy[];
  readonly logger?: Logger;
}

interface PendingLaunch {
  readonly claim: NodeClaim;
  readonly node: KwokNode;
  readonly cancel: Cancel;
}

/**
 * Node repair as Karpenter's KWOK provider: a node NotReady or Unknown for 30 min is replaced.
 * kwok keeps its nodes Ready, so this fires only when kwok itself stops.
 */
export const KwokRepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * 60_000 },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * 60_000 },
];

/**
 * A CloudProvider whose instances are Node objects in the cluster itself, which kwok keeps
 * Ready (the `kwok.x-k8s.io/node: fake` annotation). Node name = NodeClaim name, providerID
 * `kwok://<name>`; `get`, `list` and `delete` read and delete those Nodes, so the instance state
 * survives a restart of the controller. A KWOKNodeClass's `nodeRegistrationDelay` holds the Node
 * back (on the injected timers) to model boot time; a launch still pending then lives only in
 * this process. Capacity faults come from KwokFaults; every cluster call is retried with
 * backoff when the API server throttles or fails.
 */
export class KwokCloudProvider implements CloudProvider {
  readonly name = 'kwok';
  readonly interruptions?: KwokInterruptions;
  readonly faults: KwokFaults;

  readonly #o: KwokCloudProviderOptions;
  readonly #catalog: readonly InstanceType[];
  readonly #ttlMs: number;
  readonly #pending = new Map<string, PendingLaunch>();
  readonly #inflight = new Map<string, Promise<NodeClaim>>();
  #typesCache: { generation: number; types: InstanceType[] } | undefined;

  constructor(options: KwokCloudProviderOptions) {
    this.#o = options;
    this.#catalog = options.instanceTypes ?? kwokInstanceTypes();
    this.#ttlMs = options.unavailableOfferingsTtlMs ?? DefaultUnavailableOfferingsTtlMs;
    this.faults = options.faults ?? new KwokFaults();
    if (options.interruptions !== undefined) this.interruptions = options.interruptions;
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const name = nodeClaim.metadata.name;
    if (name === undefined || name === '')
      throw new CreateError('InvalidNodeClaim', 'NodeClaim has no metadata.name');
    const running = this.#inflight.get(name);
    if (running !== undefined) return structuredClone(await running);
    const launch = this.#create(name, nodeClaim).finally(() => this.#inflight.delete(name));
    this.#inflight.set(name, launch);
    return structuredClone(await launch);
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    const name = this.#nodeNameOfClaim(nodeClaim);
    const notFound = () =>
      new NodeClaimNotFoundError(`NodeClaim ${nodeClaim.metadata.name ?? ''}: no KWOK node ${name}`);
    const pending = this.#pending.get(name);
    if (pending !== undefined) {
      pending.cancel();
      this.#pending.delete(name);
      this.#o.logger?.info({ Node: { name } }, 'cancelled a KWOK node still waiting to register');
      return;
    }
    const node = await this.#getNode(name);
    // The instance is the Node: once its deletion has begun, the instance is gone. Answering
    // "still terminating" here would deadlock with core, whose termination finalizer on that same
    // Node waits for NotFound before it lets the deletion finish.
    if (node === undefined || !isOwnedNode(node, this.#o.clusterName)) throw notFound();
    if (node.metadata.deletionTimestamp !== undefined) throw notFound();
    try {
      await this.#call(() => this.#o.cluster.delete(KwokNodes, { name }));
    } catch (err) {
      if (isNotFound(err)) throw notFound();
      throw err;
    }
  }

  async get(providerID: string): Promise<NodeClaim> {
    const name = nodeNameOf(providerID);
    const notFound = () => new NodeClaimNotFoundError(`instance ${providerID} not found`);
    if (name === undefined) throw notFound();
    const pending = this.#pending.get(name);
    if (pending !== undefined) return structuredClone(pending.claim);
    const node = await this.#getNode(name);
    if (node === undefined || !isOwnedNode(node, this.#o.clusterName)) throw notFound();
    return nodeClaimView(node);
  }

  async list(): Promise<NodeClaim[]> {
    const { items } = await this.#call(() =>
      this.#o.cluster.list(KwokNodes, {
        labelSelector: `${KwokNodeLabels.ManagedBy}=${this.#o.clusterName}`,
      }),
    );
    const out = items.filter((n) => isOwnedNode(n, this.#o.clusterName)).map(nodeClaimView);
    const listed = new Set(out.map((c) => c.metadata.name));
    for (const [name, p] of this.#pending) if (!listed.has(name)) out.push(structuredClone(p.claim));
    return out;
  }

  /** The catalog with the unavailable-offerings cache applied; the NodePool does not narrow it. */
  async getInstanceTypes(_nodePool: NodePool): Promise<InstanceType[]> {
    return this.#instanceTypes();
  }

  #instanceTypes(): InstanceType[] {
    const cache = this.#o.unavailableOfferings;
    const generation = cache.generation();
    if (this.#typesCache?.generation === generation) return this.#typesCache.types;
    const types = this.#catalog.map((type) => {
      let changed = false;
      const offerings = type.offerings.map((o) => {
        if (!o.available) return o;
        if (!cache.isUnavailable({ capacityType: o.capacityType, instanceType: type.name, zone: o.zone }))
          return o;
        changed = true;
        return { ...o, available: false };
      });
      return changed ? { ...type, offerings } : type;
    });
    this.#typesCache = { generation, types };
    return types;
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    let launched = nodeClaim.metadata.annotations?.[KWOKNodeClassAnnotations.Hash];
    if (launched === undefined) {
      const node = await this.#getNode(this.#nodeNameOfClaim(nodeClaim));
      launched = node?.metadata.annotations?.[KWOKNodeClassAnnotations.Hash];
    }
    if (launched === undefined) return undefined;
    const nodeClass = await this.#getNodeClass(nodeClaim.spec.nodeClassRef.name);
    if (nodeClass === undefined) return undefined;
    const parsed = kwokNodeClassSchema.safeParse(nodeClass);
    if (!parsed.success) return undefined;
    return kwokNodeClassHash(parsed.data) === launched ? undefined : NodeClassDrift;
  }

  /** The `karpenter.kwok.sh/instance-*` labels of the KWOK catalog (see KwokWellKnownLabels). */
  wellKnownLabels(): ReadonlySet<string> {
    return KwokWellKnownLabels;
  }

  repairPolicies(): readonly RepairPolicy[] {
    return this.#o.repairPolicies ?? KwokRepairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return [KwokNodeClassRef];
  }

  /**
   * Ends an instance as the cloud would on its own (an interruption's deadline): deletes its Node
   * or cancels its pending launch. Already gone is fine.
   */
  async terminate(providerID: string): Promise<void> {
    const name = nodeNameOf(providerID);
    if (name === undefined) return;
    const pending = this.#pending.get(name);
    if (pending !== undefined) {
      pending.cancel();
      this.#pending.delete(name);
      return;
    }
    const node = await this.#getNode(name);
    if (
      node === undefined ||
      !isOwnedNode(node, this.#o.clusterName) ||
      node.metadata.deletionTimestamp !== undefined
    )
      return;
    this.#o.logger?.info({ Node: { name } }, 'KWOK instance taken at its interruption deadline');
    try {
      await this.#call(() => this.#o.cluster.delete(KwokNodes, { name }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Launches still waiting out their NodeClass's registration delay. */
  pendingLaunches(): number {
    return this.#pending.size;
  }

  /** Cancels pending registrations (at shutdown). */
  close(): void {
    for (const p of this.#pending.values()) p.cancel();
    this.#pending.clear();
  }

  async #create(name: string, nodeClaim: NodeClaim): Promise<NodeClaim> {
    const pending = this.#pending.get(name);
    if (pending !== undefined) return pending.claim;
    const existing = await this.#getNode(name);
    if (existing !== undefined && isOwnedNode(existing, this.#o.clusterName)) return nodeClaimView(existing);
    if (existing !== undefined) {
      throw new CreateError(
        'NodeNameTaken',
        `Node ${name} exists and was not launched by the KWOK provider of cluster ${this.#o.clusterName}`,
      );
    }
    const nodeClass = await this.#readyNodeClass(nodeClaim);
    const { requirements, requests } = parseClaim(nodeClaim);
    const option = this.#choose(nodeClaim, this.#instanceTypes(), requirements, requests);
    const decision: LaunchDecision = {
      nodeClaim,
      option,
      clusterName: this.#o.clusterName,
      nodeClassHash: kwokNodeClassHash(nodeClass),
    };
    const claim = hydratedClaim(decision);
    const node = nodeForLaunch(decision);
    const delayMs = durationMs(nodeClass.spec.nodeRegistrationDelay ?? '0s') ?? 0;
    this.#o.logger?.info(
      {
        NodeClaim: { name },
        'instance-type': option.key.instanceType,
        zone: option.key.zone,
        'capacity-type': option.key.capacityType,
        price: option.offering.price,
        'registration-delay-ms': delayMs,
      },
      'launched KWOK instance',
    );
    if (delayMs <= 0) {
      await this.#registerNode(node);
      return claim;
    }
    const cancel = this.#o.timers.after(delayMs, () => {
      this.#registerNode(node)
        .catch((err: unknown) =>
          this.#o.logger?.error(
            { err, Node: { name } },
            'KWOK node registration failed; the NodeClaim will time out',
          ),
        )
        .finally(() => {
          if (this.#pending.get(name)?.node === node) this.#pending.delete(name);
        });
    });
    this.#pending.set(name, { claim, node, cancel });
    return claim;
  }

  /** The cheapest compatible offering with capacity; refused ones are marked unavailable first. */
  #choose(
    nodeClaim: NodeClaim,
    types: readonly InstanceType[],
    requirements: Requirements,
    requests: ResourceList,
  ): LaunchOption {
    const options = launchOptions(types, requirements, requests);
    const refused: string[] = [];
    for (const option of options) {
      if (this.faults.hasCapacity(option.key)) return option;
      this.#o.unavailableOfferings.markUnavailable(
        option.key,
        'InsufficientCapacity (kwok fault)',
        this.#ttlMs,
      );
      refused.push(UnavailableOfferingsCache.key(option.key));
    }
    const name = nodeClaim.metadata.name ?? '';
    throw new InsufficientCapacityError(
      options.length === 0
        ? `NodeClaim ${name}: no available instance type offering satisfies its requirements and requests`
        : `NodeClaim ${name}: all ${options.length} compatible offerings lacked capacity (${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ', ...' : ''})`,
      refused,
    );
  }

  async #readyNodeClass(nodeClaim: NodeClaim): Promise<KWOKNodeClass> {
    const ref = nodeClaim.spec.nodeClassRef;
    const claimName = nodeClaim.metadata.name ?? '';
    if (ref.group !== KWOKNodeClassGroup || ref.kind !== KWOKNodeClassKind) {
      throw new NodeClassNotReadyError(
        `NodeClaim ${claimName}: spec.nodeClassRef names ${ref.kind}.${ref.group}; the KWOK provider resolves ${KWOKNodeClassKind}.${KWOKNodeClassGroup}`,
      );
    }
    const raw = await this.#getNodeClass(ref.name);
    if (raw === undefined) throw new NodeClassNotReadyError(`${KWOKNodeClassKind} ${ref.name} not found`);
    if (raw.metadata.deletionTimestamp !== undefined) {
      throw new NodeClassNotReadyError(`${KWOKNodeClassKind} ${ref.name} is being deleted`);
    }
    const parsed = kwokNodeClassSchema.safeParse(raw);
    if (!parsed.success) {
      throw new NodeClassNotReadyError(
        `${KWOKNodeClassKind} ${ref.name} is invalid: ${parsed.error.message}`,
      );
    }
    const ready = parsed.data.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') {
      throw new NodeClassNotReadyError(
        `${KWOKNodeClassKind} ${ref.name} is not Ready${ready === undefined ? ' (no Ready condition yet)' : `: ${ready.reason} ${ready.message}`.trimEnd()}`,
      );
    }
    return parsed.data;
  }

  async #registerNode(node: KwokNode): Promise<void> {
    try {
      await this.#call(() => this.#o.cluster.create(KwokNodes, node, { fieldManager: KwokFieldManager }));
    } catch (err) {
      // A retried create whose first attempt went through: the Node is ours already.
      if (!isAlreadyExists(err)) throw err;
      const existing = await this.#getNode(node.metadata.name ?? '');
      if (existing === undefined || !isOwnedNode(existing, this.#o.clusterName)) throw err;
    }
  }

  async #getNode(name: string): Promise<KwokNode | undefined> {
    try {
      return await this.#call(() => this.#o.cluster.get(KwokNodes, { name }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async #getNodeClass(name: string): Promise<KWOKNodeClass | undefined> {
    try {
      return await this.#call(() => this.#o.cluster.get(KWOKNodeClasses, { name }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  #nodeNameOfClaim(nodeClaim: NodeClaim): string {
    const fromID = nodeClaim.status?.providerID ? nodeNameOf(nodeClaim.status.providerID) : undefined;
    return fromID ?? nodeClaim.metadata.name ?? '';
  }

  #call<T>(call: () => Promise<T>): Promise<T> {
    return withRetries(this.#o.timers, call, this.#o.retry, (err, attempt, delayMs) =>
      this.#o.logger?.warn(
        { attempt, 'delay-ms': delayMs, error: err instanceof Error ? err.message : String(err) },
        'cluster call failed, retrying with backoff',
      ),
    );
  }
}

function parseClaim(nodeClaim: NodeClaim): { requirements: Requirements; requests: ResourceList } {
  try {
    return {
      requirements: Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements),
      requests: parseResourceList(nodeClaim.spec.resources?.requests),
    };
  } catch (err) {
    if (err instanceof RequirementError || err instanceof ResourceListError) {
      throw new CreateError(
        'InvalidNodeClaim',
        `NodeClaim ${nodeClaim.metadata.name ?? ''}: ${err.message}`,
        {
          cause: err,
        },
      );
    }
    throw err;
  }
}
