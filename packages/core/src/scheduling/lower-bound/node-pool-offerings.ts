import type { NodePool } from '../../apis/v1/nodepool.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { AllowUndefinedWellKnownLabels } from '../requirements/requirements.js';
import { poolRequirements, typeCompatible } from '../solver/pools.js';

/**
 * The instance types any of the NodePools may launch, each narrowed to the offerings some
 * NodePool that admits the type allows (types none admits left out). A lower bound over these
 * is tighter than over the whole catalog — a NodePool limited to on-demand never buys spot — and
 * still valid: every node an autoscaler launches for these NodePools is one of these offerings.
 * Availability is kept as the offerings carry it.
 */
export function nodePoolOfferings(
  instanceTypes: readonly InstanceType[],
  nodePools: readonly NodePool[],
): InstanceType[] {
  const pools = nodePools.map(poolRequirements);
  const out: InstanceType[] = [];
  for (const type of instanceTypes) {
    const admitting = pools.filter((r) => typeCompatible(type, r));
    if (admitting.length === 0) continue;
    const offerings = type.offerings.filter((o) =>
      admitting.some((r) => r.isCompatible(o.requirements, AllowUndefinedWellKnownLabels)),
    );
    if (offerings.length > 0) out.push({ ...type, offerings });
  }
  return out;
}
