import type { NodeClaim, NodePool } from '@nodewright/core/apis';
import {
  type CloudProvider,
  type DriftReason,
  type InstanceType,
  type InterruptionSource,
  NodeClaimNotFoundError,
  type NodeClassKindRef,
  NodeClassNotReadyError,
  nodeClassNameOf,
  type RepairPolicy,
  type UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import type { NodeClassReader } from '@nodewright/core/lifecycle';
import { type GCENodeClass, GCENodeClassGroup, GCENodeClassKind, gceNodeClassHash } from '../apis/index.js';
import { driftReason } from '../drift/drift.js';
import {
  capacityTypeOf,
  hydrateNodeClaim,
  instanceImage,
  instanceKubernetesVersion,
  nodeClaimFromInstance,
} from '../instance/hydrate.js';
import type { GceInstances } from '../instance/instances.js';
import { parseProviderID } from '../instance/provider-id.js';
import { GcpWellKnownLabels } from '../instancetype/labels.js';
import type { GceInstanceTypeProvider } from '../instancetype/provider.js';
import type { GceLauncher } from '../launch/launcher.js';
import type { GcpLogger } from '../refresh/logger.js';
import type { GceInstanceRecord } from '../sdk/compute-api.js';

export interface GcpCloudProviderDeps {
  readonly project: string;
  readonly nodeClasses: NodeClassReader<GCENodeClass>;
  readonly instanceTypes: Pick<GceInstanceTypeProvider, 'forNodeClass'>;
  readonly launcher: GceLauncher;
  readonly instances: GceInstances;
  readonly logger: GcpLogger;
  readonly unavailableOfferings?: UnavailableOfferingsCache | undefined;
  readonly interruptions?: InterruptionSource | undefined;
  /** The cluster's Kubernetes version, when set: nodes launched for another minor drift. */
  readonly kubernetesVersion?: string | undefined;
}

const NodeClassRef: NodeClassKindRef = Object.freeze({ group: GCENodeClassGroup, kind: GCENodeClassKind });

/** Like AWS and GKE: a node NotReady or unreachable for 10 minutes is replaced. */
const RepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 10 * 60_000 },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 10 * 60_000 },
];

const last = (url: string | null | undefined) => (url ?? '').slice((url ?? '').lastIndexOf('/') + 1);

/**
 * The CloudProvider for Compute Engine: NodeClaims launch with instances.insert from
 * GCENodeClasses, instances are found per zone by their labels, drift compares the instance
 * and its NodeClass. See providers/gcp/README.md.
 */
export class GcpCloudProvider implements CloudProvider {
  readonly name = 'gcp';
  readonly interruptions?: InterruptionSource;
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly #deps: GcpCloudProviderDeps;

  constructor(deps: GcpCloudProviderDeps) {
    this.#deps = deps;
    if (deps.interruptions !== undefined) this.interruptions = deps.interruptions;
    if (deps.unavailableOfferings !== undefined) this.unavailableOfferings = deps.unavailableOfferings;
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const name = nodeClaim.metadata.name;
    if (name === undefined || name === '') throw new Error('NodeClaim has no metadata.name');
    const nodeClass = await this.#deps.nodeClasses.ready(this.#nodeClassName(nodeClaim));
    const hash = gceNodeClassHash(nodeClass);
    const instanceTypes = await this.#deps.instanceTypes.forNodeClass(nodeClass);
    // A crash between insert and the status write leaves a labelled instance: adopt it.
    const [existing] = await this.#deps.instances.list(name);
    if (existing !== undefined) {
      this.#deps.logger.info(
        { NodeClaim: { name }, instance: existing.name },
        'found the instance already launched for this nodeclaim; adopting it instead of launching another',
      );
      return this.#hydrate(nodeClaim, existing, instanceTypes, hash);
    }
    const launched = await this.#deps.launcher.launch({ nodeClaim, nodeClass, instanceTypes });
    return hydrateNodeClaim(nodeClaim, {
      project: this.#deps.project,
      name: launched.name,
      zone: launched.zone,
      capacityType: launched.capacityType,
      instanceTypeName: launched.instanceType.name,
      instanceType: launched.instanceType,
      image: launched.image,
      nodeClassHash: hash,
    });
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    let ref = parseProviderID(nodeClaim.status?.providerID);
    // No providerID: the launch may still have happened before the claim recorded it.
    if (ref === undefined && nodeClaim.metadata.name !== undefined) {
      const [found] = await this.#deps.instances.list(nodeClaim.metadata.name);
      if (found !== undefined)
        ref = { project: this.#deps.project, zone: last(found.zone), name: found.name ?? '' };
    }
    if (ref === undefined)
      throw new NodeClaimNotFoundError(`NodeClaim ${nodeClaim.metadata.name ?? ''} has no instance`);
    await this.#deps.instances.delete(ref);
  }

  async get(providerID: string): Promise<NodeClaim> {
    const ref = parseProviderID(providerID);
    if (ref === undefined) throw new NodeClaimNotFoundError(`${providerID} is not a GCE providerID`);
    return nodeClaimFromInstance(await this.#deps.instances.get(ref), this.#deps.project);
  }

  async list(): Promise<NodeClaim[]> {
    return (await this.#deps.instances.list()).map((r) => nodeClaimFromInstance(r, this.#deps.project));
  }

  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    const name = nodePool.spec.template.spec.nodeClassRef.name;
    const nodeClass = await this.#deps.nodeClasses.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`GCENodeClass ${name} not found`);
    return this.#deps.instanceTypes.forNodeClass(nodeClass);
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const nodeClass = await this.#deps.nodeClasses.find(this.#nodeClassName(nodeClaim));
    if (nodeClass === undefined) return undefined;
    const ref = parseProviderID(nodeClaim.status?.providerID);
    let record: GceInstanceRecord | undefined;
    if (ref !== undefined) {
      try {
        record = await this.#deps.instances.get(ref);
      } catch (err) {
        if (!(err instanceof NodeClaimNotFoundError)) throw err;
      }
    }
    return driftReason({
      nodeClaim,
      nodeClass,
      instanceImage: record && instanceImage(record),
      instanceKubernetesVersion: record && instanceKubernetesVersion(record),
      kubernetesVersion: this.#deps.kubernetesVersion,
    });
  }

  /** Every `karpenter.k8s.gcp/instance-*` label. */
  wellKnownLabels(): ReadonlySet<string> {
    return GcpWellKnownLabels;
  }

  repairPolicies(): readonly RepairPolicy[] {
    return RepairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return [NodeClassRef];
  }

  #nodeClassName(nodeClaim: NodeClaim): string {
    return nodeClassNameOf(nodeClaim, NodeClassRef, 'gcp');
  }

  #hydrate(
    nodeClaim: NodeClaim,
    record: GceInstanceRecord,
    types: readonly InstanceType[],
    hash: string,
  ): NodeClaim {
    const typeName = last(record.machineType);
    return hydrateNodeClaim(nodeClaim, {
      project: this.#deps.project,
      name: record.name ?? '',
      zone: last(record.zone),
      capacityType: capacityTypeOf(record),
      instanceTypeName: typeName,
      instanceType: types.find((t) => t.name === typeName),
      image: instanceImage(record),
      nodeClassHash: hash,
    });
  }
}
