import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import type { VolumeIndex } from '../volumes/volume-topology.js';
import { volumeTopology } from '../volumes/volume-topology.js';
import { podNodeRequirements, requiredNodeAffinityTerms } from './node-requirements.js';

/** A pending pod could go to several zones. */
export const FlexibleZone = 'flexible';
/** A pending pod's zone signals leave no zone at all. */
export const NoZone = 'none';

/**
 * The zone a pending pod is confined to, for Karpenter's
 * `karpenter_scheduler_pending_pods_by_effective_zone_count`: the intersection of its strict zone
 * requirement (nodeSelector and first required node-affinity term, preferences left out) and the
 * zones its volumes allow. One zone is named; several, or no zone signal at all, is `flexible`;
 * signals that exclude each other are `none`. Pure.
 *
 * Karpenter also narrows by the zones a DoNotSchedule zone spread would accept now; that needs
 * the solver's counts of matching pods, so this leaves spreads out: a pod whose only zone signal
 * is a spread is `flexible`.
 *
 * @throws RequirementError for an expression the algebra cannot interpret.
 */
export function effectiveZone(pod: Pod, volumes: VolumeIndex): string {
  const strict = podNodeRequirements(pod.spec.nodeSelector, requiredNodeAffinityTerms(pod), [], true);
  const zoneRequirement = strict.get(Labels.Zone);
  const volumeZones = volumeZoneSet(pod, volumes);
  let candidates: readonly string[];
  if (zoneRequirement?.operator() === 'In') candidates = zoneRequirement.sortedValues();
  else if (volumeZones !== undefined) candidates = [...volumeZones];
  else return FlexibleZone;
  const matched = candidates.filter(
    (zone) => (zoneRequirement?.has(zone) ?? true) && (volumeZones?.has(zone) ?? true),
  );
  if (matched.length === 1) return matched[0]!;
  return matched.length === 0 ? NoZone : FlexibleZone;
}

/**
 * The zones every one of the pod's volumes allows (a volume allows the zones of any of its
 * alternatives), or undefined when no volume names zones. An unreadable volume topology (a
 * missing claim) names none.
 */
function volumeZoneSet(pod: Pod, volumes: VolumeIndex): ReadonlySet<string> | undefined {
  const topology = volumeTopology(pod, volumes);
  if (!topology.ok) return undefined;
  let out: Set<string> | undefined;
  for (const volume of topology.requirements) {
    const allowed = new Set<string>();
    let unrestricted = false;
    for (const alternative of volume.alternatives) {
      const zone = alternative.get(Labels.Zone);
      if (zone?.operator() !== 'In') {
        unrestricted = true;
        break;
      }
      for (const value of zone.sortedValues()) allowed.add(value);
    }
    if (unrestricted) continue;
    out = out === undefined ? allowed : new Set([...out].filter((z) => allowed.has(z)));
  }
  return out;
}
