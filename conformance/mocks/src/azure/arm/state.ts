/** A stored ARM resource: its JSON as GET returns it. */
export type ArmResource = Record<string, unknown> & {
  id: string;
  name: string;
  type: string;
  location: string;
  tags?: Record<string, string>;
  properties: Record<string, unknown>;
};

/** What a VM ran as, kept after it is gone so tests can see evictions and deletions. */
export interface VmRecord {
  readonly name: string;
  readonly size: string;
  readonly zone: string | undefined;
  readonly priority: 'Regular' | 'Spot';
  readonly family: string;
  readonly vCPUs: number;
}

/**
 * The mock's resources, per resource group, by type and lower-cased name (ARM names are
 * case-insensitive). Plain maps; the handlers own the rules.
 */
export class ArmState {
  readonly vms = new Map<string, ArmResource>();
  readonly nics = new Map<string, ArmResource>();
  readonly disks = new Map<string, ArmResource>();
  /** Facts of the VMs that exist, for quota and eviction. */
  readonly running = new Map<string, VmRecord>();
  /** Names of Spot VMs evicted, in order. */
  readonly evicted: string[] = [];
  /** Custom data of every VM created, by VM name, decoded. */
  readonly customData = new Map<string, string>();

  static key(resourceGroup: string, name: string): string {
    return `${resourceGroup.toLowerCase()}/${name.toLowerCase()}`;
  }

  /** vCPUs in use: regular ones of a family, and Spot ones in all. */
  coresInUse(family: string): { family: number; spot: number } {
    let familyCores = 0;
    let spot = 0;
    for (const vm of this.running.values()) {
      if (vm.priority === 'Spot') spot += vm.vCPUs;
      else if (vm.family === family) familyCores += vm.vCPUs;
    }
    return { family: familyCores, spot };
  }
}
