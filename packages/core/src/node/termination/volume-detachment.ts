import type { Pod } from '../../apis/kubernetes/pod.js';
import { isNotFound } from '../../kube/errors.js';
import type { ClusterPort } from '../../kube/port.js';
import {
  PersistentVolumeClaims,
  type VolumeAttachment,
  VolumeAttachments,
} from '../../kube/resource-types.js';
import { isWaitingEviction } from './drain.js';

/**
 * The VolumeAttachments that still hold up a node's termination: those on the node for a
 * PersistentVolume, except volumes of pods the drain does not wait for (they would never
 * detach: static pods, pods tolerating the disrupted taint, stuck pods). The attach/detach
 * controller deletes them once the volumes are unmounted.
 */
export async function pendingVolumeAttachments(
  cluster: ClusterPort,
  nodeName: string,
  pods: readonly Pod[],
  now: number,
): Promise<VolumeAttachment[]> {
  const attachments = (await cluster.list(VolumeAttachments)).items.filter(
    (va) => va.spec?.nodeName === nodeName && va.spec.source?.persistentVolumeName !== undefined,
  );
  if (attachments.length === 0) return [];
  const ignored = new Set<string>();
  for (const pod of pods) {
    if (isWaitingEviction(pod, now)) continue;
    for (const volume of pod.spec.volumes ?? []) {
      const claimName =
        volume.persistentVolumeClaim?.claimName ??
        (volume.ephemeral === undefined ? undefined : `${pod.metadata.name}-${volume.name}`);
      if (claimName === undefined) continue;
      try {
        const pvc = await cluster.get(PersistentVolumeClaims, {
          name: claimName,
          namespace: pod.metadata.namespace,
        });
        if (pvc.spec?.volumeName !== undefined) ignored.add(pvc.spec.volumeName);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
  return attachments.filter((va) => !ignored.has(va.spec?.source?.persistentVolumeName ?? ''));
}
