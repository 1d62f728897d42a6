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
import { type EC2NodeClass, EC2NodeClassGroup, ec2NodeClassHash } from '../apis/index.js';
import { driftReason } from '../drift/drift.js';
import type { AwsInstance } from '../instance/aws-instance.js';
import { hydrateNodeClaim, nodeClaimFromInstance } from '../instance/hydrate.js';
import type { Instances } from '../instance/instances.js';
import { instanceIdOf } from '../instance/provider-id.js';
import { AwsWellKnownLabels } from '../instancetype/labels.js';
import type { FleetLauncher } from '../launch/launcher.js';
import type { AwsLogger } from '../launch/logger.js';
import type { AwsInstanceTypes } from '../ports.js';
import type { NodeClassReader } from './nodeclass-reader.js';
import { AwsRepairPolicies } from './repair-policies.js';

/** How to build an AwsCloudProvider. */
export interface AwsCloudProviderDeps {
  readonly nodeClasses: NodeClassReader;
  readonly instanceTypes: AwsInstanceTypes;
  readonly launcher: FleetLauncher;
  readonly instances: Instances;
  readonly logger: AwsLogger;
  /** Present when an interruption queue is configured. */
  readonly interruptions?: InterruptionSource | undefined;
  /** The cluster CA bundle, part of the static-drift hash (as upstream). */
  readonly caBundle?: string | undefined;
  /**
   * The cache launches mark insufficient-capacity offerings in; exposed so core's interruption
   * controller marks interrupted spot offerings in the same one.
   */
  readonly unavailableOfferings?: UnavailableOfferingsCache | undefined;
}

const EC2NodeClassRef: NodeClassKindRef = Object.freeze({ group: EC2NodeClassGroup, kind: 'EC2NodeClass' });

/**
 * The CloudProvider for EC2: NodeClaims launch with CreateFleet from EC2NodeClasses read
 * through the cluster port, instances are found by their tags, drift compares the instance and
 * its NodeClass. See providers/aws/README.md.
 */
export class AwsCloudProvider implements CloudProvider {
  readonly name = 'aws';
  readonly interruptions?: InterruptionSource;
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly #deps: AwsCloudProviderDeps;

  constructor(deps: AwsCloudProviderDeps) {
    this.#deps = deps;
    if (deps.interruptions !== undefined) this.interruptions = deps.interruptions;
    if (deps.unavailableOfferings !== undefined) this.unavailableOfferings = deps.unavailableOfferings;
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const name = nodeClaim.metadata.name;
    if (name === undefined || name === '') throw new Error('NodeClaim has no metadata.name');
    const nodeClass = await this.#deps.nodeClasses.ready(this.#nodeClassName(nodeClaim));
    const hash = ec2NodeClassHash(nodeClass, this.#deps.caBundle);
    // A crash between CreateFleet and the status write leaves a tagged instance: adopt it.
    const existing = await this.#deps.instances.forNodeClaim(name);
    const instanceTypes = await this.#deps.instanceTypes.forNodeClass(nodeClass);
    if (existing !== undefined) {
      this.#deps.logger.info(
        { NodeClaim: { name }, 'instance-id': existing.id },
        'found the instance already launched for this nodeclaim; adopting it instead of launching another',
      );
      this.#deps.instances.recordLaunch(existing.id);
      return this.#hydrateExisting(nodeClaim, nodeClass, existing, instanceTypes, hash);
    }
    const launched = await this.#deps.launcher.launch({ nodeClaim, nodeClass, instanceTypes });
    this.#deps.instances.recordLaunch(launched.instance.instanceId);
    return hydrateNodeClaim(nodeClaim, {
      instanceId: launched.instance.instanceId,
      instanceTypeName: launched.instance.instanceType,
      instanceType: launched.instanceType,
      zone: launched.instance.zone,
      zoneId: launched.zoneId,
      capacityType: launched.instance.capacityType,
      imageId: launched.imageId,
      nodeClassHash: hash,
    });
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    let id = instanceIdOf(nodeClaim.status?.providerID);
    // No providerID: the launch may still have happened before the claim recorded it.
    if (id === undefined && nodeClaim.metadata.name !== undefined) {
      id = (await this.#deps.instances.forNodeClaim(nodeClaim.metadata.name))?.id;
    }
    if (id === undefined) {
      throw new NodeClaimNotFoundError(`NodeClaim ${nodeClaim.metadata.name ?? ''} has no instance`);
    }
    await this.#deps.instances.terminate(id);
  }

  async get(providerID: string): Promise<NodeClaim> {
    const id = instanceIdOf(providerID);
    if (id === undefined) throw new NodeClaimNotFoundError(`${providerID} is not an AWS providerID`);
    return nodeClaimFromInstance(await this.#deps.instances.get(id));
  }

  async list(): Promise<NodeClaim[]> {
    return (await this.#deps.instances.list()).map(nodeClaimFromInstance);
  }

  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    const name = nodePool.spec.template.spec.nodeClassRef.name;
    const nodeClass = await this.#deps.nodeClasses.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`EC2NodeClass ${name} not found`);
    return this.#deps.instanceTypes.forNodeClass(nodeClass);
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const nodeClass = await this.#deps.nodeClasses.find(this.#nodeClassName(nodeClaim));
    if (nodeClass === undefined) return undefined;
    const id = instanceIdOf(nodeClaim.status?.providerID);
    let instance: AwsInstance | undefined;
    if (id !== undefined) {
      try {
        instance = await this.#deps.instances.get(id);
      } catch (err) {
        if (!(err instanceof NodeClaimNotFoundError)) throw err;
      }
    }
    return driftReason({ nodeClaim, nodeClass, instance, caBundle: this.#deps.caBundle });
  }

  /** Every `karpenter.k8s.aws/*` and `topology.k8s.aws/*` label upstream registers. */
  wellKnownLabels(): ReadonlySet<string> {
    return AwsWellKnownLabels;
  }

  repairPolicies(): readonly RepairPolicy[] {
    return AwsRepairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return [EC2NodeClassRef];
  }

  #nodeClassName(nodeClaim: NodeClaim): string {
    return nodeClassNameOf(nodeClaim, EC2NodeClassRef, 'aws');
  }

  #hydrateExisting(
    nodeClaim: NodeClaim,
    nodeClass: EC2NodeClass,
    instance: AwsInstance,
    instanceTypes: readonly InstanceType[],
    hash: string,
  ): NodeClaim {
    return hydrateNodeClaim(nodeClaim, {
      instanceId: instance.id,
      instanceTypeName: instance.instanceType,
      instanceType: instanceTypes.find((t) => t.name === instance.instanceType),
      zone: instance.zone,
      zoneId: nodeClass.status?.subnets?.find((s) => s.zone === instance.zone)?.zoneID,
      capacityType: instance.capacityType,
      imageId: instance.imageId,
      nodeClassHash: hash,
    });
  }
}
