import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { type LaunchOption, launchOptions } from '../../cloudprovider/launch-options.js';
import type { OfferingKey } from '../../cloudprovider/unavailable-offerings.js';
import type { Requirements } from '../../scheduling/requirements/requirements.js';
import type { ResourceList } from '../../scheduling/resources/resource-list.js';

/** One offering a launch may try, with the type it belongs to. */
export type LaunchCandidate = LaunchOption;

/**
 * Every offering a claim may launch on, cheapest first (launchOptions: compatible types whose
 * allocatable fits, available offerings the claim's zone and capacity type allow, a total order),
 * less those `unavailable` says are out (the provider's cache and reservations).
 */
export function launchCandidates(
  catalog: readonly InstanceType[],
  requirements: Requirements,
  requests: ResourceList,
  unavailable: (key: OfferingKey) => boolean,
): LaunchCandidate[] {
  return launchOptions(catalog, requirements, requests).filter((c) => !unavailable(c.key));
}
