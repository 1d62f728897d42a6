import type { AMIFamily, KubeletConfiguration } from '../apis/index.js';

/** A taint as the kubelet registers it. */
export interface NodeTaint {
  readonly key: string;
  readonly value?: string | undefined;
  readonly effect: string;
}

/** What a node needs to join the cluster, independent of the AMI family. */
export interface BootstrapOptions {
  readonly clusterName: string;
  /** The API server URL; required by every family except Custom. */
  readonly clusterEndpoint?: string | undefined;
  /** Base64 PEM of the cluster CA. */
  readonly caBundle?: string | undefined;
  /** Labels the kubelet registers the node with (already filtered to ones it may set). */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints and startup taints, registered at once so no pod lands before they apply. */
  readonly taints: readonly NodeTaint[];
  /** The pod limit the scheduling simulation assumed for the instance type. */
  readonly maxPods?: number | undefined;
  readonly kubelet?: KubeletConfiguration | undefined;
  /** The EC2NodeClass's own userData, merged in the family's way. */
  readonly customUserData?: string | undefined;
}

const Boundary = '//';

/**
 * The user data (plain text, not yet base64) that makes an instance of `family` join the
 * cluster: AL2023 a MIME multi-part with a nodeadm NodeConfig, Bottlerocket TOML settings, AL2
 * a MIME multi-part calling /etc/eks/bootstrap.sh, Windows a PowerShell block calling the EKS
 * bootstrap script, Custom the NodeClass's userData unchanged (the image bootstraps itself).
 */
export function renderUserData(family: AMIFamily, options: BootstrapOptions): string {
  switch (family) {
    case 'AL2023':
      return al2023(options);
    case 'Bottlerocket':
      return bottlerocket(options);
    case 'AL2':
      return al2(options);
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return windows(options);
    case 'Custom':
      return options.customUserData ?? '';
  }
}

/** `key=value` pairs sorted by key, so equal inputs give byte-equal user data (and LT names). */
function sortedEntries(map: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function taintFlag(t: NodeTaint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

function nodeLabelsFlag(labels: Readonly<Record<string, string>>): string {
  return sortedEntries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** The kubelet command-line flags every family but Bottlerocket passes through. */
export function kubeletFlags(options: BootstrapOptions): string[] {
  const flags: string[] = [];
  if (Object.keys(options.labels).length > 0) flags.push(`--node-labels=${nodeLabelsFlag(options.labels)}`);
  if (options.taints.length > 0)
    flags.push(`--register-with-taints=${options.taints.map(taintFlag).join(',')}`);
  const maxPods = options.kubelet?.maxPods ?? options.maxPods;
  if (maxPods !== undefined) flags.push(`--max-pods=${maxPods}`);
  const k = options.kubelet;
  if (k?.podsPerCore !== undefined) flags.push(`--pods-per-core=${k.podsPerCore}`);
  const pairs = (name: string, map: Readonly<Record<string, string>> | undefined, sep: string) => {
    const entries = sortedEntries(map);
    if (entries.length > 0) flags.push(`--${name}=${entries.map(([a, b]) => `${a}${sep}${b}`).join(',')}`);
  };
  pairs('system-reserved', k?.systemReserved, '=');
  pairs('kube-reserved', k?.kubeReserved, '=');
  pairs('eviction-hard', k?.evictionHard, '<');
  pairs('eviction-soft', k?.evictionSoft, '<');
  pairs('eviction-soft-grace-period', k?.evictionSoftGracePeriod, '=');
  if (k?.evictionMaxPodGracePeriod !== undefined)
    flags.push(`--eviction-max-pod-grace-period=${k.evictionMaxPodGracePeriod}`);
  if (k?.imageGCHighThresholdPercent !== undefined)
    flags.push(`--image-gc-high-threshold=${k.imageGCHighThresholdPercent}`);
  if (k?.imageGCLowThresholdPercent !== undefined)
    flags.push(`--image-gc-low-threshold=${k.imageGCLowThresholdPercent}`);
  if (k?.cpuCFSQuota !== undefined) flags.push(`--cpu-cfs-quota=${k.cpuCFSQuota}`);
  if (k?.clusterDNS !== undefined && k.clusterDNS.length > 0)
    flags.push(`--cluster-dns=${k.clusterDNS.join(',')}`);
  return flags;
}

function requireEndpoint(options: BootstrapOptions, family: string): { endpoint: string; ca: string } {
  if (!options.clusterEndpoint) {
    throw new Error(`user data for ${family}: setting clusterEndpoint is required (the API server URL)`);
  }
  if (!options.caBundle) {
    throw new Error(`user data for ${family}: setting caBundle is required (base64 cluster CA)`);
  }
  return { endpoint: options.clusterEndpoint, ca: options.caBundle };
}

/** One MIME part; the NodeClass's own part comes first so nodeadm merges ours over it. */
function mime(parts: { contentType: string; body: string }[]): string {
  const lines = ['MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${Boundary}"`, ''];
  for (const part of parts) {
    lines.push(`--${Boundary}`, `Content-Type: ${part.contentType}`, '', part.body.trimEnd(), '');
  }
  lines.push(`--${Boundary}--`, '');
  return lines.join('\n');
}

/** The NodeClass's userData as a MIME part: already MIME -> its parts, else one part. */
function customParts(
  userData: string | undefined,
  defaultType: string,
): { contentType: string; body: string }[] {
  if (userData === undefined || userData.trim() === '') return [];
  const boundary = /boundary="?([^"\s;]+)"?/i.exec(userData)?.[1];
  if (!/^MIME-Version:/im.test(userData) || boundary === undefined) {
    return [{ contentType: defaultType, body: userData }];
  }
  return userData
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => {
      const [head = '', ...rest] = chunk.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const contentType = /Content-Type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? defaultType;
      return { contentType, body: rest.join('\n\n') };
    });
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function al2023(options: BootstrapOptions): string {
  const { endpoint, ca } = requireEndpoint(options, 'AL2023');
  const k = options.kubelet;
  const config: string[] = [];
  const maxPods = k?.maxPods ?? options.maxPods;
  if (maxPods !== undefined) config.push(`      maxPods: ${maxPods}`);
  if (k?.podsPerCore !== undefined) config.push(`      podsPerCore: ${k.podsPerCore}`);
  if (k?.clusterDNS !== undefined && k.clusterDNS.length > 0) {
    config.push('      clusterDNS:', ...k.clusterDNS.map((d) => `        - ${yamlString(d)}`));
  }
  const maps: [string, Readonly<Record<string, string>> | undefined][] = [
    ['systemReserved', k?.systemReserved],
    ['kubeReserved', k?.kubeReserved],
    ['evictionHard', k?.evictionHard],
    ['evictionSoft', k?.evictionSoft],
    ['evictionSoftGracePeriod', k?.evictionSoftGracePeriod],
  ];
  for (const [name, map] of maps) {
    const entries = sortedEntries(map);
    if (entries.length > 0)
      config.push(`      ${name}:`, ...entries.map(([a, b]) => `        ${yamlString(a)}: ${yamlString(b)}`));
  }
  if (k?.evictionMaxPodGracePeriod !== undefined)
    config.push(`      evictionMaxPodGracePeriod: ${k.evictionMaxPodGracePeriod}`);
  if (k?.imageGCHighThresholdPercent !== undefined)
    config.push(`      imageGCHighThresholdPercent: ${k.imageGCHighThresholdPercent}`);
  if (k?.imageGCLowThresholdPercent !== undefined)
    config.push(`      imageGCLowThresholdPercent: ${k.imageGCLowThresholdPercent}`);
  if (k?.cpuCFSQuota !== undefined) config.push(`      cpuCFSQuota: ${k.cpuCFSQuota}`);
  const flags: string[] = [];
  if (Object.keys(options.labels).length > 0) flags.push(`--node-labels=${nodeLabelsFlag(options.labels)}`);
  if (options.taints.length > 0)
    flags.push(`--register-with-taints=${options.taints.map(taintFlag).join(',')}`);
  const nodeConfig = [
    'apiVersion: node.eks.aws/v1alpha1',
    'kind: NodeConfig',
    'spec:',
    '  cluster:',
    `    name: ${yamlString(options.clusterName)}`,
    `    apiServerEndpoint: ${yamlString(endpoint)}`,
    `    certificateAuthority: ${yamlString(ca)}`,
    '  kubelet:',
    ...(config.length > 0 ? ['    config:', ...config] : []),
    ...(flags.length > 0 ? ['    flags:', ...flags.map((f) => `      - ${yamlString(f)}`)] : []),
  ].join('\n');
  return mime([
    ...customParts(options.customUserData, 'application/node.eks.aws'),
    { contentType: 'application/node.eks.aws', body: nodeConfig },
  ]);
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

function bottlerocket(options: BootstrapOptions): string {
  const { endpoint, ca } = requireEndpoint(options, 'Bottlerocket');
  const k = options.kubelet;
  const lines = [
    '[settings.kubernetes]',
    `api-server = ${tomlString(endpoint)}`,
    `cluster-certificate = ${tomlString(ca)}`,
    `cluster-name = ${tomlString(options.clusterName)}`,
  ];
  const maxPods = k?.maxPods ?? options.maxPods;
  if (maxPods !== undefined) lines.push(`max-pods = ${maxPods}`);
  if (k?.podsPerCore !== undefined) lines.push(`pods-per-core = ${k.podsPerCore}`);
  if (k?.clusterDNS !== undefined && k.clusterDNS.length > 0)
    lines.push(`cluster-dns-ip = [${k.clusterDNS.map(tomlString).join(', ')}]`);
  if (k?.cpuCFSQuota !== undefined) lines.push(`cpu-cfs-quota-enforced = ${k.cpuCFSQuota}`);
  if (k?.imageGCHighThresholdPercent !== undefined)
    lines.push(`image-gc-high-threshold-percent = ${k.imageGCHighThresholdPercent}`);
  if (k?.imageGCLowThresholdPercent !== undefined)
    lines.push(`image-gc-low-threshold-percent = ${k.imageGCLowThresholdPercent}`);
  const table = (name: string, entries: [string, string][]) => {
    if (entries.length === 0) return;
    lines.push(
      '',
      `[settings.kubernetes.${name}]`,
      ...entries.map(([a, b]) => `${tomlString(a)} = ${tomlString(b)}`),
    );
  };
  table('node-labels', sortedEntries(options.labels));
  const taints = new Map<string, string[]>();
  for (const t of options.taints)
    taints.set(t.key, [...(taints.get(t.key) ?? []), `${t.value ?? ''}:${t.effect}`]);
  if (taints.size > 0) {
    lines.push('', '[settings.kubernetes.node-taints]');
    for (const [key, values] of [...taints].sort(([a], [b]) => (a < b ? -1 : 1)))
      lines.push(`${tomlString(key)} = [${values.map(tomlString).join(', ')}]`);
  }
  table('system-reserved', sortedEntries(k?.systemReserved));
  table('kube-reserved', sortedEntries(k?.kubeReserved));
  table('eviction-hard', sortedEntries(k?.evictionHard));
  const generated = lines.join('\n');
  // TOML forbids defining a table twice, so the NodeClass's settings go first and must not
  // repeat the tables generated here (documented in the README).
  const custom = options.customUserData?.trim();
  return custom ? `${custom}\n\n${generated}\n` : `${generated}\n`;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

function al2(options: BootstrapOptions): string {
  const { endpoint, ca } = requireEndpoint(options, 'AL2');
  const args = [
    `/etc/eks/bootstrap.sh ${shellQuote(options.clusterName)}`,
    `--apiserver-endpoint ${shellQuote(endpoint)}`,
    `--b64-cluster-ca ${shellQuote(ca)}`,
  ];
  const flags = kubeletFlags(options);
  // bootstrap.sh computes its own max pods from the ENI table unless told not to.
  if (flags.some((f) => f.startsWith('--max-pods='))) args.push('--use-max-pods false');
  if (flags.length > 0) args.push(`--kubelet-extra-args ${shellQuote(flags.join(' '))}`);
  const script = [
    '#!/bin/bash -xe',
    'exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1',
    args.join(' \\\n  '),
  ].join('\n');
  return mime([
    ...customParts(options.customUserData, 'text/x-shellscript; charset="us-ascii"'),
    { contentType: 'text/x-shellscript; charset="us-ascii"', body: script },
  ]);
}

function windows(options: BootstrapOptions): string {
  const { endpoint, ca } = requireEndpoint(options, 'Windows');
  const ps = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const flags = kubeletFlags(options);
  const custom = options.customUserData?.trim().replace(/^<powershell>|<\/powershell>$/g, '') ?? '';
  return [
    '<powershell>',
    ...(custom ? [custom.trim()] : []),
    '[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"',
    `& $EKSBootstrapScriptFile -EKSClusterName ${ps(options.clusterName)} -APIServerEndpoint ${ps(endpoint)} -Base64ClusterCA ${ps(ca)}${flags.length > 0 ? ` -KubeletExtraArgs ${ps(flags.join(' '))}` : ''} 3>&1 4>&1 5>&1 6>&1`,
    '</powershell>',
    '',
  ].join('\n');
}
