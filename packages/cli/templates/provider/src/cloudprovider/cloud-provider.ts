import {
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
  instanceTypeCatalogSchema,
  type NodeClaim,
  type NodePool,
} from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import type { Clock } from '@nodewright/core/clock';
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
import { type ClusterPort, isNotFound } from '@nodewright/core/kube';
import type { ProviderContext } from '@nodewright/core/operator';
import { parseResourceList, Requirements, type ResourceList } from '@nodewright/core/scheduling';
import {
  type NodeClass,
  NodeClasses,
  NodeClassGroup,
  NodeClassKindName,
  nodeClassHash,
  nodeClassSchema,
} from '../apis/nodeclass.js';
import { CloudApiError, type CloudClient } from '../cloud/cloud-client.js';
import { instanceIDOf, type WireInstance } from '../cloud/wire.js';
import { ProviderName } from '../provider-name.js';
import { hydratedClaim, nodeClaimView, ProviderKeys } from './nodeclaim-view.js';

type Logger = ProviderContext['logger'];

/** The NodeClass kind this provider resolves. */
export const NodeClassRef: NodeClassKindRef = { group: NodeClassGroup, kind: NodeClassKindName };

/** Drift reason when the NodeClass changed since the launch. */
export const NodeClassDrift: DriftReason = 'NodeClassDrift';

/** Replace a node NotReady or Unknown for 30 minutes, as Karpenter's providers do. */
export const DefaultRepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * 60_000 },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * 60_000 },
];

export interface ProviderOptions {
  readonly client: CloudClient;
  /** Reads NodeClasses (readiness, drift). */
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  /** Tags every instance; `list` returns only this cluster's. */
  readonly clusterName: string;
  /** Shared with core: a launch refused for lack of capacity marks its offering here. */
  readonly unavailableOfferings: UnavailableOfferingsCache;
  /** How long an offering refused for lack of capacity stays unavailable. Default 3 min. */
  readonly unavailableOfferingsTtlMs?: number;
  /** How long the cloud's instance types are kept before they are read again. Default 5 min. */
  readonly instanceTypesTtlMs?: number;
  readonly logger?: Logger;
}

/**
 * The CloudProvider: launches, describes, lists and terminates instances through the cloud's
 * API (CloudClient) and maps the cloud's answers onto core's typed errors. Every method is
 * one section of docs/writing-a-provider.md in the nodewright repository.
 */
export class Provider implements CloudProvider {
  readonly name = ProviderName;
  readonly #o: ProviderOptions;
  #types: { readonly at: number; readonly types: readonly InstanceType[] } | undefined;

  constructor(options: ProviderOptions) {
    this.#o = options;
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const name = nodeClaim.metadata.name ?? '';
    if (name === '') throw new CreateError('InvalidNodeClaim', 'NodeClaim has no metadata.name');
    const nodeClass = await this.#readyNodeClass(nodeClaim);
    const { requirements, requests } = parseClaim(nodeClaim);
    const types = await this.#instanceTypes();
    const options = launchOptions(types, requirements, requests);
    const refused: string[] = [];
    for (const option of options) {
      const instance = await this.#launch(nodeClaim, nodeClass, option);
      if (instance === undefined) {
        refused.push(UnavailableOfferingsCache.key(option.key));
        continue;
      }
      this.#o.logger?.info(
        {
          NodeClaim: { name },
          'instance-id': instance.id,
          'instance-type': instance.instanceType,
          zone: instance.zone,
          'capacity-type': instance.capacityType,
          price: option.offering.price,
        },
        'launched instance',
      );
      return hydratedClaim(nodeClaim, instance, typeNamed(types, instance.instanceType));
    }
    throw new InsufficientCapacityError(
      options.length === 0
        ? `NodeClaim ${name}: no available offering satisfies its requirements and requests`
        : `NodeClaim ${name}: all ${options.length} compatible offerings lacked capacity`,
      refused,
    );
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    const id = instanceIDOf(nodeClaim.status?.providerID ?? '');
    const gone = () =>
      new NodeClaimNotFoundError(`NodeClaim ${nodeClaim.metadata.name ?? ''}: instance gone`);
    if (id === undefined) throw gone();
    try {
      await this.#o.client.terminate(id);
    } catch (error) {
      if (error instanceof CloudApiError && error.status === 404) throw gone();
      throw error;
    }
    this.#o.logger?.info({ NodeClaim: { name: nodeClaim.metadata.name }, 'instance-id': id }, 'terminating');
  }

  async get(providerID: string): Promise<NodeClaim> {
    const id = instanceIDOf(providerID);
    if (id === undefined)
      throw new NodeClaimNotFoundError(`${providerID} is not a providerID of ${ProviderName}`);
    let instance: WireInstance;
    try {
      instance = await this.#o.client.describe(id);
    } catch (error) {
      if (error instanceof CloudApiError && error.status === 404) {
        throw new NodeClaimNotFoundError(`instance ${providerID} not found`);
      }
      throw error;
    }
    if (instance.cluster !== this.#o.clusterName) {
      throw new NodeClaimNotFoundError(`instance ${providerID} belongs to another cluster`);
    }
    return nodeClaimView(instance, typeNamed(await this.#instanceTypes(), instance.instanceType));
  }

  async list(): Promise<NodeClaim[]> {
    const [instances, types] = await Promise.all([
      this.#o.client.list(this.#o.clusterName),
      this.#instanceTypes(),
    ]);
    return instances.map((i) => nodeClaimView(i, typeNamed(types, i.instanceType)));
  }

  /** The cloud's types; offerings the unavailable-offerings cache lists are reported unavailable. */
  async getInstanceTypes(_nodePool: NodePool): Promise<InstanceType[]> {
    const cache = this.#o.unavailableOfferings;
    return (await this.#instanceTypes()).map((type) => ({
      ...type,
      offerings: type.offerings.map((o) =>
        o.available &&
        cache.isUnavailable({ capacityType: o.capacityType, instanceType: type.name, zone: o.zone })
          ? { ...o, available: false }
          : o,
      ),
    }));
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const launched = nodeClaim.metadata.annotations?.[ProviderKeys.NodeClassHash];
    if (launched === undefined) return undefined;
    const nodeClass = await this.#nodeClass(nodeClaim.spec.nodeClassRef.name);
    if (nodeClass === undefined) return undefined;
    const parsed = nodeClassSchema.safeParse(nodeClass);
    if (!parsed.success) return undefined;
    return nodeClassHash(parsed.data) === launched ? undefined : NodeClassDrift;
  }

  /** Label keys the instance types define beyond core's well-known ones: none here. */
  wellKnownLabels(): ReadonlySet<string> {
    return new Set();
  }

  repairPolicies(): readonly RepairPolicy[] {
    return DefaultRepairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return [NodeClassRef];
  }

  /** Launches one option; undefined when the cloud had no capacity for it (now marked unavailable). */
  async #launch(
    nodeClaim: NodeClaim,
    nodeClass: NodeClass,
    option: LaunchOption,
  ): Promise<WireInstance | undefined> {
    const name = nodeClaim.metadata.name ?? '';
    try {
      return await this.#o.client.launch({
        clientToken: name,
        cluster: this.#o.clusterName,
        instanceType: option.key.instanceType,
        zone: option.key.zone,
        capacityType: option.key.capacityType,
        image: nodeClass.spec.image,
        nodeClassHash: nodeClassHash(nodeClass),
        tags: {
          ...(nodeClaim.metadata.labels ?? {}),
          [ProviderKeys.NodeClaimTag]: name,
          [ProviderKeys.NodeClassTag]: nodeClaim.spec.nodeClassRef.name,
        },
      });
    } catch (error) {
      if (!(error instanceof CloudApiError && error.code === 'InsufficientCapacity')) throw error;
      const ttlMs = this.#o.unavailableOfferingsTtlMs ?? 3 * 60_000;
      this.#o.unavailableOfferings.markUnavailable(option.key, 'InsufficientCapacity', ttlMs);
      this.#o.logger?.info(
        { NodeClaim: { name }, offering: UnavailableOfferingsCache.key(option.key) },
        'offering lacked capacity; trying the next cheapest',
      );
      return undefined;
    }
  }

  async #instanceTypes(): Promise<readonly InstanceType[]> {
    const now = this.#o.clock.now();
    const ttlMs = this.#o.instanceTypesTtlMs ?? 5 * 60_000;
    if (this.#types !== undefined && now - this.#types.at < ttlMs) return this.#types.types;
    const { instanceTypes } = await this.#o.client.instanceTypes();
    const catalog = instanceTypeCatalogSchema.parse({
      apiVersion: InstanceTypeCatalogApiVersion,
      kind: InstanceTypeCatalogKind,
      metadata: { name: ProviderName },
      instanceTypes,
    });
    const built = instanceTypesFromCatalog(catalog);
    if (built.problems.length > 0) {
      const problems = built.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      throw new Error(`the cloud's instance types are malformed: ${problems}`);
    }
    this.#types = { at: now, types: built.instanceTypes };
    return built.instanceTypes;
  }

  async #readyNodeClass(nodeClaim: NodeClaim): Promise<NodeClass> {
    const ref = nodeClaim.spec.nodeClassRef;
    const claim = nodeClaim.metadata.name ?? '';
    if (ref.group !== NodeClassGroup || ref.kind !== NodeClassKindName) {
      throw new NodeClassNotReadyError(
        `NodeClaim ${claim}: spec.nodeClassRef names ${ref.kind}.${ref.group}, not ${NodeClassKindName}.${NodeClassGroup}`,
      );
    }
    const raw = await this.#nodeClass(ref.name);
    if (raw === undefined) throw new NodeClassNotReadyError(`${NodeClassKindName} ${ref.name} not found`);
    const parsed = nodeClassSchema.safeParse(raw);
    if (!parsed.success) {
      throw new NodeClassNotReadyError(
        `${NodeClassKindName} ${ref.name} is invalid: ${parsed.error.message}`,
      );
    }
    const ready = parsed.data.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True' || raw.metadata.deletionTimestamp !== undefined) {
      throw new NodeClassNotReadyError(`${NodeClassKindName} ${ref.name} is not Ready`);
    }
    return parsed.data;
  }

  async #nodeClass(name: string): Promise<NodeClass | undefined> {
    try {
      return await this.#o.cluster.get(NodeClasses, { name });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

function typeNamed(types: readonly InstanceType[], name: string): InstanceType | undefined {
  return types.find((t) => t.name === name);
}

function parseClaim(nodeClaim: NodeClaim): { requirements: Requirements; requests: ResourceList } {
  try {
    return {
      requirements: Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements),
      requests: parseResourceList(nodeClaim.spec.resources?.requests),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CreateError('InvalidNodeClaim', `NodeClaim ${nodeClaim.metadata.name ?? ''}: ${message}`);
  }
}
