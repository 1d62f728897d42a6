import type { ContainerPort } from '../../apis/kubernetes/container.js';
import type { Pod } from '../../apis/kubernetes/pod.js';

/** A port a pod claims on its node: the scheduler lets only one pod hold each. */
export interface HostPort {
  /** The host IP; the unspecified address ("" / 0.0.0.0 / ::) overlaps every IP. */
  readonly ip: string;
  readonly port: number;
  readonly protocol: string;
}

function isUnspecified(ip: string): boolean {
  return ip === '' || ip === '0.0.0.0' || ip === '::';
}

function hostPortOf(p: ContainerPort): HostPort | undefined {
  const port = p.hostPort ?? 0;
  if (port === 0) return undefined;
  return { ip: p.hostIP ?? '', port, protocol: p.protocol ?? 'TCP' };
}

/**
 * The host ports a pod claims: those of its app containers and of its sidecar init containers
 * (restartPolicy Always), which run alongside them. Plain init containers have finished by then.
 */
export function podHostPorts(pod: Pick<Pod, 'spec'>): HostPort[] {
  const out: HostPort[] = [];
  const containers = [
    ...pod.spec.containers,
    ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      const hp = hostPortOf(p);
      if (hp !== undefined) out.push(hp);
    }
  }
  return out;
}

/** Whether two host ports collide: same port and protocol, and IPs equal or one unspecified. */
export function hostPortsCollide(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === b.ip || isUnspecified(a.ip) || isUnspecified(b.ip);
}

/** The first of `wanted` that collides with one of `used`, with the one it collides with. */
export function hostPortConflict(
  used: readonly HostPort[],
  wanted: readonly HostPort[],
): { wanted: HostPort; used: HostPort } | undefined {
  for (const w of wanted) {
    for (const u of used) if (hostPortsCollide(u, w)) return { wanted: w, used: u };
  }
  return undefined;
}

/** e.g. `8080/TCP` or `10.0.0.1:53/UDP`. */
export function describeHostPort(p: HostPort): string {
  return `${isUnspecified(p.ip) ? '' : `${p.ip}:`}${p.port}/${p.protocol}`;
}
