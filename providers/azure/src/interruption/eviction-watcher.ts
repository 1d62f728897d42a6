import { CapacityTypes, Labels } from '@nodewright/core/apis';
import type { InterruptionNotice, InterruptionSource, OfferingKey } from '@nodewright/core/cloudprovider';
import { capacityTypeOf, nodeClaimFromVm, type VmPlacement } from '../instance/hydrate.js';
import type { VirtualMachine } from '../sdk/ports.js';

/** The part of Instances the watcher reads: the cluster's VMs, and the ones nodewright is deleting. */
export interface WatchedInstances {
  list(): Promise<VirtualMachine[]>;
  /** Whether nodewright itself deleted (or is deleting) the VM of this name. */
  deletedByUs(name: string): boolean;
}

/**
 * Spot evictions noticed from ARM: a Spot VM (eviction policy Delete) that was listed and is
 * gone without nodewright deleting it was evicted, and becomes a SpotInterruption notice with
 * its offering, so core drains the claim and marks the offering unavailable. Each `receive`
 * lists the VMs once; the first call only learns what runs. Warnings ahead of the eviction
 * (`Preempt` scheduled events) are ScheduledEventWatcher's; this notices the eviction itself.
 */
export class EvictionWatcher implements InterruptionSource {
  readonly #seen = new Map<string, { providerID: string; offering: OfferingKey }>();
  #primed = false;

  constructor(
    private readonly instances: WatchedInstances,
    private readonly placement: VmPlacement,
  ) {}

  async receive(): Promise<InterruptionNotice[]> {
    const vms = await this.instances.list();
    const now = new Set<string>();
    const notices: InterruptionNotice[] = [];
    for (const vm of vms) {
      const name = vm.name ?? '';
      now.add(name);
      if (capacityTypeOf(vm) !== CapacityTypes.Spot || vm.provisioningState !== 'Succeeded') continue;
      const claim = nodeClaimFromVm(vm, this.placement);
      const labels = claim.metadata.labels ?? {};
      this.#seen.set(name, {
        providerID: claim.status?.providerID ?? '',
        offering: {
          capacityType: CapacityTypes.Spot,
          instanceType: labels[Labels.InstanceType] ?? '',
          zone: labels[Labels.Zone] ?? '',
        },
      });
    }
    for (const [name, seen] of this.#seen) {
      if (now.has(name)) continue;
      this.#seen.delete(name);
      if (!this.#primed || this.instances.deletedByUs(name)) continue;
      notices.push({
        id: `evicted/${name}`,
        kind: 'SpotInterruption',
        providerID: seen.providerID,
        offering: seen.offering,
        message: `Spot VM ${name} was evicted by Azure (gone without nodewright deleting it)`,
      });
    }
    this.#primed = true;
    return notices;
  }

  /** Nothing to acknowledge: a notice is derived from ARM's state, not queued. */
  async acknowledge(): Promise<void> {}
}
