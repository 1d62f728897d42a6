import { runCommand } from './helm.js';

/**
 * The host's address on the Docker network kind puts its nodes on, from
 * `docker network inspect kind --format '{{json .IPAM.Config}}'`. A server the host binds
 * there is reachable from pods (kindnet masquerades their traffic out of the node), which is
 * how a mock cloud started by a test serves a controller running in the cluster. Pure; throws
 * naming what it read when the network has no IPv4 gateway.
 */
export function kindHostAddress(ipamConfigJson: string): string {
  let configs: unknown;
  try {
    configs = JSON.parse(ipamConfigJson);
  } catch {
    throw new Error(`docker network inspect kind: not JSON: ${ipamConfigJson.slice(0, 200)}`);
  }
  const gateways = (Array.isArray(configs) ? configs : [])
    .map((c) => (c as { Gateway?: unknown }).Gateway)
    .filter((g): g is string => typeof g === 'string');
  const ipv4 = gateways.find((g) => /^\d{1,3}(\.\d{1,3}){3}$/.test(g));
  if (ipv4 === undefined) {
    throw new Error(`docker network kind has no IPv4 gateway (IPAM config ${ipamConfigJson.trim()})`);
  }
  return ipv4;
}

/**
 * Asks the local Docker engine for the `kind` network (which kind creates with its first
 * cluster and keeps) and resolves to the host's address on it (kindHostAddress).
 */
export async function kindNetworkHost(): Promise<string> {
  const result = await runCommand('docker', [
    'network',
    'inspect',
    'kind',
    '--format',
    '{{json .IPAM.Config}}',
  ]);
  if (result.code !== 0) {
    throw new Error(`docker network inspect kind failed (exit ${result.code}): ${result.stderr.trim()}`);
  }
  return kindHostAddress(result.stdout);
}
