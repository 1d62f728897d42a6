import type { Container, InitContainer } from '../../apis/kubernetes/container.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { VolumeRequirement } from '../volumes/volume-topology.js';

function containers(list: readonly (Container | InitContainer)[] | undefined): unknown {
  return list?.map((c) => [c.resources ?? null, c.ports ?? null, c.restartPolicy ?? null]) ?? null;
}

/**
 * A string equal for pods the solver cannot tell apart: same namespace and labels (what topology
 * selectors see), same requests, ports, node constraints, tolerations, spread and affinity, and
 * the same volume topology. Pods that differ only in name, uid or creation time share it.
 */
export function podSignature(pod: Pod, volumes: readonly VolumeRequirement[]): string {
  const s = pod.spec;
  return JSON.stringify([
    pod.metadata.namespace ?? 'default',
    pod.metadata.labels ?? null,
    containers(s.containers),
    containers(s.initContainers),
    s.overhead ?? null,
    s.resources ?? null,
    s.nodeSelector ?? null,
    s.affinity ?? null,
    s.tolerations ?? null,
    s.topologySpreadConstraints ?? null,
    volumes.map((v) => [v.source, v.alternatives.map((a) => a.toString())]),
  ]);
}
