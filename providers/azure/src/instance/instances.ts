import { NodeClaimNotFoundError } from '@nodewright/core/cloudprovider';
import { nicName, osDiskName } from '../launch/names.js';
import { AzureTagKeys } from '../launch/tags.js';
import { isArmNotFound } from '../sdk/arm-error.js';
import type { ComputeApi, NetworkApi, VirtualMachine } from '../sdk/ports.js';

export interface InstancesDeps {
  readonly compute: ComputeApi;
  readonly network: NetworkApi;
  readonly resourceGroup: string;
  readonly clusterName: string;
}

/** Runs `call`, treating "not there" as done: deletes are idempotent. */
async function ignoringNotFound(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (!isArmNotFound(err)) throw err;
  }
}

/**
 * The cluster's VMs in the node resource group: found by name or by the cluster tag, and
 * deleted with their NIC and OS disk.
 */
export class Instances {
  /** VMs nodewright deleted, so a vanished VM can be told from an evicted one (bounded). */
  readonly #deleted = new Set<string>();

  constructor(private readonly d: InstancesDeps) {}

  /** Whether nodewright deleted (or is deleting) the VM of this name. */
  deletedByUs(name: string): boolean {
    return this.#deleted.has(name);
  }

  /** The VM, or NodeClaimNotFoundError when ARM has none of that name. */
  async get(name: string): Promise<VirtualMachine> {
    try {
      return await this.d.compute.getVirtualMachine(this.d.resourceGroup, name);
    } catch (err) {
      if (isArmNotFound(err))
        throw new NodeClaimNotFoundError(`VM ${name} not found in ${this.d.resourceGroup}`);
      throw err;
    }
  }

  /** The VM if it exists, else undefined. */
  async find(name: string): Promise<VirtualMachine | undefined> {
    try {
      return await this.get(name);
    } catch (err) {
      if (err instanceof NodeClaimNotFoundError) return undefined;
      throw err;
    }
  }

  /** Every VM tagged for this cluster. */
  async list(): Promise<VirtualMachine[]> {
    const out: VirtualMachine[] = [];
    for await (const vm of this.d.compute.listVirtualMachines(this.d.resourceGroup)) {
      if (vm.tags?.[AzureTagKeys.Cluster] === this.d.clusterName) out.push(vm);
    }
    return out;
  }

  /**
   * Deletes the VM (waiting for ARM's operation), then its NIC and OS disk should their delete
   * option not have taken them. @throws NodeClaimNotFoundError when the VM was already gone
   * (its NIC and disk are still cleaned up first, so a half-made launch leaves nothing).
   */
  async delete(name: string): Promise<void> {
    const vm = await this.find(name);
    if (vm !== undefined) {
      this.#deleted.add(name);
      // Only recent deletions matter to the eviction watcher, which lists every few seconds.
      if (this.#deleted.size > 10_000) this.#deleted.delete(this.#deleted.values().next().value!);
      await this.d.compute.deleteVirtualMachine(this.d.resourceGroup, name);
    }
    await this.deleteLeftovers(name);
    if (vm === undefined) throw new NodeClaimNotFoundError(`VM ${name} not found in ${this.d.resourceGroup}`);
  }

  /** Removes the NIC and OS disk of a VM that is gone, if they are still there. */
  async deleteLeftovers(name: string): Promise<void> {
    await ignoringNotFound(() => this.d.network.deleteNetworkInterface(this.d.resourceGroup, nicName(name)));
    await ignoringNotFound(() => this.d.compute.deleteDisk(this.d.resourceGroup, osDiskName(name)));
  }
}
