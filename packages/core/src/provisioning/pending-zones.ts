import { effectiveZone } from '../scheduling/pod/effective-zone.js';
import type { SolverInput } from '../scheduling/solver/types.js';
import { VolumeIndex } from '../scheduling/volumes/volume-topology.js';

/**
 * A pass's Pending pods counted by the zone each is confined to (`effectiveZone`), as Karpenter
 * counts them for `karpenter_scheduler_pending_pods_by_effective_zone_count`. A pod whose
 * requirements do not parse is left out: the solve reports it unschedulable with the reason.
 * Pure.
 */
export function pendingPodsByZone(
  input: Pick<SolverInput, 'pods' | 'persistentVolumeClaims' | 'persistentVolumes' | 'storageClasses'>,
): Map<string, number> {
  const volumes = new VolumeIndex(
    input.persistentVolumeClaims,
    input.persistentVolumes,
    input.storageClasses,
  );
  const counts = new Map<string, number>();
  for (const pod of input.pods) {
    if (pod.status?.phase !== 'Pending') continue;
    let zone: string;
    try {
      zone = effectiveZone(pod, volumes);
    } catch {
      continue;
    }
    counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  return counts;
}
