import type { AKSKubeletConfiguration } from '../apis/index.js';

/** What the node's bootstrap needs from the NodeClaim and its NodeClass. */
export interface BootstrapOptions {
  readonly clusterName: string;
  /** The API server URL nodes join; omitted from the script when unknown. */
  readonly clusterEndpoint?: string | undefined;
  /** Labels the kubelet registers with (already filtered to those a kubelet may set). */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints and startup taints, registered with the node. */
  readonly taints: readonly { key: string; value?: string | undefined; effect: string }[];
  readonly maxPods: number;
  readonly kubelet?: AKSKubeletConfiguration | undefined;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The kubelet flags of a node: labels, taints, max pods and the NodeClass's kubelet settings. */
export function kubeletFlags(o: BootstrapOptions): string[] {
  const flags: string[] = [];
  const labels = Object.entries(o.labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  if (labels.length > 0) flags.push(`--node-labels=${labels.join(',')}`);
  const taints = o.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
  if (taints.length > 0) flags.push(`--register-with-taints=${taints.join(',')}`);
  flags.push(`--max-pods=${o.maxPods}`);
  const k = o.kubelet;
  if (k?.cpuManagerPolicy !== undefined) flags.push(`--cpu-manager-policy=${k.cpuManagerPolicy}`);
  if (k?.cpuCFSQuota !== undefined) flags.push(`--cpu-cfs-quota=${k.cpuCFSQuota}`);
  if (k?.cpuCFSQuotaPeriod !== undefined) flags.push(`--cpu-cfs-quota-period=${k.cpuCFSQuotaPeriod}`);
  if (k?.imageGCHighThresholdPercent !== undefined)
    flags.push(`--image-gc-high-threshold=${k.imageGCHighThresholdPercent}`);
  if (k?.imageGCLowThresholdPercent !== undefined)
    flags.push(`--image-gc-low-threshold=${k.imageGCLowThresholdPercent}`);
  if (k?.topologyManagerPolicy !== undefined)
    flags.push(`--topology-manager-policy=${k.topologyManagerPolicy}`);
  if (k?.allowedUnsafeSysctls !== undefined && k.allowedUnsafeSysctls.length > 0)
    flags.push(`--allowed-unsafe-sysctls=${k.allowedUnsafeSysctls.join(',')}`);
  if (k?.containerLogMaxSize !== undefined) flags.push(`--container-log-max-size=${k.containerLogMaxSize}`);
  if (k?.containerLogMaxFiles !== undefined)
    flags.push(`--container-log-max-files=${k.containerLogMaxFiles}`);
  if (k?.podPidsLimit !== undefined) flags.push(`--pod-max-pids=${k.podPidsLimit}`);
  return flags;
}

/**
 * The VM's custom data: a bootstrap script that writes the kubelet's flags where the AKS node
 * image's kubelet unit reads them, then runs the image's provisioning. Plain text; the launcher
 * base64-encodes it as ARM requires.
 */
export function renderCustomData(o: BootstrapOptions): string {
  return [
    '#!/bin/bash',
    'set -euo pipefail',
    `# nodewright: node of cluster ${o.clusterName}`,
    'mkdir -p /etc/default',
    `cat > /etc/default/kubelet <<'NODEWRIGHT_EOF'`,
    `KUBELET_FLAGS=${quote(kubeletFlags(o).join(' '))}`,
    ...(o.clusterEndpoint !== undefined ? [`API_SERVER=${quote(o.clusterEndpoint)}`] : []),
    'NODEWRIGHT_EOF',
    'if [ -x /opt/azure/containers/provision_start.sh ]; then /opt/azure/containers/provision_start.sh; fi',
    '',
  ].join('\n');
}
