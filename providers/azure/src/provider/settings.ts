import { durationMs } from '@nodewright/core/apis';
import { SubnetIdRegex } from '../apis/index.js';

/** Provider settings keys and what each means (shown by `nodewright controller --help`). */
export const AzureSettingKeys = {
  subscriptionId: 'Azure subscription of the cluster (required).',
  location: 'Azure region of the cluster (required), e.g. eastus.',
  nodeResourceGroup:
    'Resource group the node VMs, NICs and disks go in (required), e.g. MC_rg_cluster_eastus.',
  resourceGroup: "The cluster's own resource group (informational; tags and logs).",
  subnetID: 'Subnet for NodeClasses without vnetSubnetID, as an ARM subnet resource ID.',
  clusterEndpoint: 'The API server URL nodes join (custom data).',
  kubernetesVersion: 'Kubernetes version of the cluster (required), e.g. 1.33.2.',
  nodeImageVersion:
    "AKS node image version for NodeClasses that pin none, e.g. 202511.07.0; unset = the gallery's latest.",
  imageRefresh:
    "How long a gallery's node image versions are trusted before they are listed again; default 1h.",
  sshPublicKey:
    'SSH public key for the azureuser account of nodes (OpenSSH format); unset = a throwaway key, no SSH login.',
  clientId: 'Client ID of the workload identity (or user-assigned managed identity); unset = the default.',
  tenantId: 'Tenant of the workload identity; unset = the default.',
  armEndpoint: "ARM's base URL (a mock, a proxy or a sovereign cloud); unset = Azure public cloud.",
  pricesEndpoint: 'Base URL of the Retail Prices API; unset = https://prices.azure.com.',
  caFile: 'PEM file of a CA to trust for ARM and Retail Prices (a mock or a TLS-inspecting proxy).',
  staticAccessToken: 'A fixed bearer token instead of workload identity (mocks only).',
  maxLaunchAttempts: 'Launches one create tries, cheapest first, before InsufficientCapacity; default 3.',
  pollInterval: 'Delay between polls of an ARM long-running operation, e.g. 2s (default: the SDK’s).',
  retryDelay: 'First backoff of a retried ARM call, doubled each retry, e.g. 800ms (default 800ms).',
  requestTimeout:
    'Deadline of each attempt of an ARM or Retail Prices call, after which it is retried, e.g. 30s (default 60s).',
  connectTimeout: 'Deadline of opening a connection to ARM, TLS included, e.g. 5s (default 10s).',
} as const;

export type AzureSettingKey = keyof typeof AzureSettingKeys;

/** The provider's settings, parsed. */
export interface AzureSettings {
  readonly subscriptionId: string;
  readonly location: string;
  readonly nodeResourceGroup: string;
  readonly resourceGroup?: string;
  readonly subnetID?: string;
  readonly clusterEndpoint?: string;
  readonly kubernetesVersion: string;
  readonly nodeImageVersion?: string;
  readonly imageRefreshMs?: number;
  readonly sshPublicKey?: string;
  readonly clientId?: string;
  readonly tenantId?: string;
  readonly armEndpoint?: string;
  readonly pricesEndpoint?: string;
  readonly caFile?: string;
  readonly staticAccessToken?: string;
  readonly maxLaunchAttempts: number;
  readonly pollIntervalMs?: number;
  readonly retryDelayMs?: number;
  readonly requestTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
}

const fail = (message: string): never => {
  throw new Error(`azure provider: ${message}`);
};

/**
 * Parses `--set key=value` settings. @throws Error naming each unknown key, a missing required
 * one, and each malformed value with what it should look like.
 */
export function parseAzureSettings(raw: Readonly<Record<string, string>>): AzureSettings {
  const unknown = Object.keys(raw).filter((k) => !(k in AzureSettingKeys));
  if (unknown.length > 0) {
    fail(
      `unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${Object.keys(AzureSettingKeys).join(', ')})`,
    );
  }
  const get = (k: AzureSettingKey): string | undefined => {
    const v = raw[k]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const required = (k: AzureSettingKey, example: string) =>
    get(k) ?? fail(`setting ${k} is required (e.g. --set ${k}=${example})`);
  const subscriptionId = required('subscriptionId', '00000000-0000-0000-0000-000000000000');
  if (!/^[0-9a-fA-F-]{36}$/.test(subscriptionId))
    fail(`setting subscriptionId ${JSON.stringify(subscriptionId)} is not a GUID`);
  const location = required('location', 'eastus');
  if (!/^[a-z0-9]+$/.test(location))
    fail(`setting location ${JSON.stringify(location)} is not a region name such as eastus`);
  const nodeResourceGroup = required('nodeResourceGroup', 'MC_rg_cluster_eastus');
  const kubernetesVersion = required('kubernetesVersion', '1.33.2');
  if (!/^\d+\.\d+(\.\d+)?$/.test(kubernetesVersion))
    fail(`setting kubernetesVersion ${JSON.stringify(kubernetesVersion)} is not a version such as 1.33.2`);
  const nodeImageVersion = get('nodeImageVersion');
  if (nodeImageVersion !== undefined && !/^\d+\.\d+\.\d+$/.test(nodeImageVersion))
    fail(
      `setting nodeImageVersion ${JSON.stringify(nodeImageVersion)} is not an image version such as 202511.07.0`,
    );
  const subnetID = get('subnetID');
  if (subnetID !== undefined && !SubnetIdRegex.test(subnetID)) {
    fail(`setting subnetID ${JSON.stringify(subnetID)} is not an ARM subnet resource ID`);
  }
  for (const k of ['clusterEndpoint', 'armEndpoint', 'pricesEndpoint'] as const) {
    const v = get(k);
    if (v !== undefined && !URL.canParse(v)) fail(`setting ${k} ${JSON.stringify(v)} is not a URL`);
  }
  const attempts = Number(get('maxLaunchAttempts') ?? '3');
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 20) {
    fail(
      `setting maxLaunchAttempts ${JSON.stringify(get('maxLaunchAttempts'))} is not a whole number from 1 to 20`,
    );
  }
  const duration = (
    k: 'pollInterval' | 'retryDelay' | 'imageRefresh' | 'requestTimeout' | 'connectTimeout',
  ) => {
    const v = get(k);
    if (v === undefined) return undefined;
    // Milliseconds too: ARM operations and retries are tuned below a second.
    const ms = /^[0-9]+ms$/.test(v) ? Number(v.slice(0, -2)) : durationMs(v);
    if (ms === undefined || !Number.isFinite(ms) || ms <= 0)
      fail(`setting ${k} ${JSON.stringify(v)} is not a duration such as 2s or 500ms`);
    return ms;
  };
  const optional = <K extends string>(key: K, value: string | number | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, never>>;
  return {
    subscriptionId,
    location,
    nodeResourceGroup,
    kubernetesVersion,
    maxLaunchAttempts: attempts,
    ...optional('nodeImageVersion', nodeImageVersion),
    ...optional('resourceGroup', get('resourceGroup')),
    ...optional('subnetID', subnetID),
    ...optional('clusterEndpoint', get('clusterEndpoint')),
    ...optional('sshPublicKey', get('sshPublicKey')),
    ...optional('clientId', get('clientId')),
    ...optional('tenantId', get('tenantId')),
    ...optional('armEndpoint', get('armEndpoint')),
    ...optional('pricesEndpoint', get('pricesEndpoint')),
    ...optional('caFile', get('caFile')),
    ...optional('staticAccessToken', get('staticAccessToken')),
    ...optional('pollIntervalMs', duration('pollInterval')),
    ...optional('retryDelayMs', duration('retryDelay')),
    ...optional('imageRefreshMs', duration('imageRefresh')),
    ...optional('requestTimeoutMs', duration('requestTimeout')),
    ...optional('connectTimeoutMs', duration('connectTimeout')),
  };
}
