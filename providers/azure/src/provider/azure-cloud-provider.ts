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
import { AKSNodeClassGroup, AKSNodeClassKind, aksNodeClassHash } from '../apis/index.js';
import { driftReason } from '../drift/drift.js';
import { hydrateNodeClaim, nodeClaimFromVm, type VmPlacement } from '../instance/hydrate.js';
import type { Instances } from '../instance/instances.js';
import { parseProviderID } from '../instance/provider-id.js';
import { AzureWellKnownLabels } from '../instancetype/labels.js';
import type { InstanceTypeProvider } from '../instancetype/provider.js';
import type { Launcher } from '../launch/launcher.js';
import { vmName } from '../launch/names.js';
import type { ProviderLogger } from '../logger.js';
import type { NodeClassReader } from '../nodeclass/reader.js';
import { AzureRepairPolicies } from './repair-policies.js';

export interface AzureCloudProviderDeps {
  readonly nodeClasses: NodeClassReader;
  readonly instanceTypes: Pick<InstanceTypeProvider, 'forNodeClass'>;
  readonly launcher: Launcher;
  readonly instances: Instances;
  readonly placement: VmPlacement;
  readonly logger: ProviderLogger;
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly interruptions?: InterruptionSource;
}

const AKSNodeClassRef: NodeClassKindRef = Object.freeze({ group: AKSNodeClassGroup, kind: AKSNodeClassKind });

/**
 * The CloudProvider for Azure VMs: one VM (with its NIC) per NodeClaim from an AKSNodeClass,
 * named `aks-<nodeclaim>` so a retried create finds it, listed by the cluster tag, deleted with
 * NIC and OS disk. See providers/azure/README.md.
 */
export class AzureCloudProvider implements CloudProvider {
  readonly name = 'azure';
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly interruptions?: InterruptionSource;

  constructor(private readonly d: AzureCloudProviderDeps) {
    if (d.unavailableOfferings !== undefined) this.unavailableOfferings = d.unavailableOfferings;
    if (d.interruptions !== undefined) this.interruptions = d.interruptions;
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const claim = nodeClaim.metadata.name;
    if (claim === undefined || claim === '') throw new Error('NodeClaim has no metadata.name');
    const nodeClass = await this.d.nodeClasses.ready(this.#nodeClassName(nodeClaim));
    const hash = aksNodeClassHash(nodeClass);
    const instanceTypes = await this.d.instanceTypes.forNodeClass(nodeClass);
    const name = vmName(claim);
    // A crash between the VM's creation and the status write leaves it running: adopt it.
    const existing = await this.d.instances.find(name);
    if (existing !== undefined && existing.provisioningState === 'Succeeded') {
      this.d.logger.info(
        { NodeClaim: { name: claim }, vm: name },
        'found the VM already launched for this nodeclaim; adopting it instead of launching another',
      );
      const type = instanceTypes.find((t) => t.name === existing.hardwareProfile?.vmSize);
      return hydrateNodeClaim(nodeClaim, existing, {
        ...this.d.placement,
        instanceType: type,
        nodeClassHash: hash,
        kubernetesVersion: nodeClass.status?.kubernetesVersion,
      });
    }
    if (existing !== undefined) {
      // A VM left Failed (or half-deleted) by an earlier attempt is removed before launching anew.
      await this.d.instances.delete(name).catch((err: unknown) => {
        if (!(err instanceof NodeClaimNotFoundError)) throw err;
      });
    }
    const launched = await this.d.launcher.launch({ nodeClaim, nodeClass, instanceTypes });
    return hydrateNodeClaim(nodeClaim, launched.vm, {
      ...this.d.placement,
      instanceType: launched.candidate.instanceType,
      nodeClassHash: hash,
      kubernetesVersion: nodeClass.status?.kubernetesVersion,
    });
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    const parsed = parseProviderID(nodeClaim.status?.providerID);
    // No providerID: the launch may have happened before the claim recorded it.
    const name = parsed?.name ?? (nodeClaim.metadata.name ? vmName(nodeClaim.metadata.name) : undefined);
    if (name === undefined) throw new NodeClaimNotFoundError('NodeClaim has no name and no providerID');
    await this.d.instances.delete(name);
  }

  async get(providerID: string): Promise<NodeClaim> {
    const parsed = parseProviderID(providerID);
    if (parsed === undefined) throw new NodeClaimNotFoundError(`${providerID} is not an Azure VM providerID`);
    return nodeClaimFromVm(await this.d.instances.get(parsed.name), this.d.placement);
  }

  async list(): Promise<NodeClaim[]> {
    return (await this.d.instances.list()).map((vm) => nodeClaimFromVm(vm, this.d.placement));
  }

  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    const name = nodePool.spec.template.spec.nodeClassRef.name;
    const nodeClass = await this.d.nodeClasses.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`AKSNodeClass ${name} not found`);
    return this.d.instanceTypes.forNodeClass(nodeClass);
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const nodeClass = await this.d.nodeClasses.find(this.#nodeClassName(nodeClaim));
    return nodeClass === undefined ? undefined : driftReason(nodeClaim, nodeClass);
  }

  /** Every `karpenter.azure.com/sku-*` label. */
  wellKnownLabels(): ReadonlySet<string> {
    return AzureWellKnownLabels;
  }

  repairPolicies(): readonly RepairPolicy[] {
    return AzureRepairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return [AKSNodeClassRef];
  }

  #nodeClassName(nodeClaim: NodeClaim): string {
    return nodeClassNameOf(nodeClaim, AKSNodeClassRef, 'azure');
  }
}
