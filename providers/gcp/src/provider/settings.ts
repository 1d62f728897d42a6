import { durationMs } from '@nodewright/core/apis';
import type { LaunchMode } from '../launch/launcher.js';

/** Provider settings keys and what each means (shown by `nodewright controller --help`). */
export const GcpSettingKeys = {
  project: 'Google Cloud project id of the cluster (required).',
  region: 'Compute Engine region of the cluster (required), e.g. us-central1.',
  network:
    'Subnetwork (or network) for nodes whose GCENodeClass names none, e.g. regions/us-central1/subnetworks/nodes.',
  endpoint: 'One URL for Compute Engine and the billing catalog (a mock or proxy); unset = Google APIs.',
  billingEndpoint: 'URL of the Cloud Billing Catalog when it differs from endpoint.',
  anonymous: 'true = send no credentials (for mocks); unset = application default credentials.',
  kubernetesVersion:
    'Kubernetes version of the control plane (e.g. 1.33 or 1.33.2); recorded on each node, whose minor version then drifts when this changes. Unset = no version drift.',
  launchMode:
    'bulkInsert (default) = one instances.bulkInsert offering a zone up to 10 machine types cheapest first; insert = one instances.insert per offering.',
  requestTimeout:
    'Deadline of each Compute Engine or billing catalog call, e.g. 30s or 500ms (default 60s; operations.wait gets 2 minutes more).',
} as const;

export type GcpSettingKey = keyof typeof GcpSettingKeys;

/** The GCP provider's settings, parsed. */
export interface GcpSettings {
  readonly project: string;
  readonly region: string;
  readonly network?: string | undefined;
  readonly endpoint?: string | undefined;
  readonly billingEndpoint?: string | undefined;
  readonly anonymous: boolean;
  readonly launchMode: LaunchMode;
  readonly kubernetesVersion?: string | undefined;
  readonly requestTimeoutMs?: number | undefined;
}

const ProjectId = /^[a-z][-a-z0-9]{4,28}[a-z0-9]$/;
const Region = /^[a-z]+-[a-z]+[0-9]+$/;

/**
 * Parses `--set key=value` provider settings.
 * @throws Error naming each unknown key, a missing or malformed project or region, or an endpoint that is not a URL.
 */
export function parseGcpSettings(raw: Readonly<Record<string, string>>): GcpSettings {
  const unknown = Object.keys(raw).filter((k) => !(k in GcpSettingKeys));
  if (unknown.length > 0) {
    throw new Error(
      `gcp provider: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${Object.keys(GcpSettingKeys).join(', ')})`,
    );
  }
  const get = (k: GcpSettingKey): string | undefined => {
    const v = raw[k]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const project = get('project');
  if (project === undefined)
    throw new Error('gcp provider: setting project is required (e.g. --set project=my-project)');
  if (!ProjectId.test(project)) {
    throw new Error(
      `gcp provider: setting project ${JSON.stringify(project)} is not a project id (6-30 lowercase letters, digits, -)`,
    );
  }
  const region = get('region');
  if (region === undefined)
    throw new Error('gcp provider: setting region is required (e.g. --set region=us-central1)');
  if (!Region.test(region))
    throw new Error(
      `gcp provider: setting region ${JSON.stringify(region)} is not a region such as us-central1`,
    );
  for (const key of ['endpoint', 'billingEndpoint'] as const) {
    const v = get(key);
    if (v !== undefined && !URL.canParse(v))
      throw new Error(`gcp provider: setting ${key} ${JSON.stringify(v)} is not a URL`);
  }
  const anonymous = get('anonymous');
  if (anonymous !== undefined && anonymous !== 'true' && anonymous !== 'false') {
    throw new Error(`gcp provider: setting anonymous ${JSON.stringify(anonymous)} is not true or false`);
  }
  const kubernetesVersion = get('kubernetesVersion');
  if (kubernetesVersion !== undefined && !/^v?\d+\.\d+(\.\d+)?$/.test(kubernetesVersion)) {
    throw new Error(
      `gcp provider: setting kubernetesVersion ${JSON.stringify(kubernetesVersion)} is not a version such as 1.33 or 1.33.2`,
    );
  }
  const launchMode = get('launchMode') ?? 'bulkInsert';
  if (launchMode !== 'bulkInsert' && launchMode !== 'insert') {
    throw new Error(
      `gcp provider: setting launchMode ${JSON.stringify(launchMode)} is not bulkInsert or insert`,
    );
  }
  const timeout = get('requestTimeout');
  // Milliseconds too: tests hold calls for less than a second.
  const requestTimeoutMs =
    timeout === undefined
      ? undefined
      : /^[0-9]+ms$/.test(timeout)
        ? Number(timeout.slice(0, -2))
        : durationMs(timeout);
  if (timeout !== undefined && (requestTimeoutMs === undefined || !(requestTimeoutMs > 0))) {
    throw new Error(
      `gcp provider: setting requestTimeout ${JSON.stringify(timeout)} is not a duration such as 30s or 500ms`,
    );
  }
  return {
    project,
    region,
    network: get('network'),
    endpoint: get('endpoint'),
    billingEndpoint: get('billingEndpoint'),
    anonymous: anonymous === 'true',
    launchMode,
    kubernetesVersion,
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
  };
}
