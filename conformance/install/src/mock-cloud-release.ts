import { settingVariable } from '@nodewright/core/operator';

/**
 * What `helm install` of the controller chart needs to run a provider against a mock cloud
 * from inside the cluster: the chart's own values with the mock's settings, and the mock's
 * static credentials kept off the command line, as a user keeps real ones.
 */
export interface MockCloudRelease {
  /** `name:tag` of an image the node already has (loaded with `kind load`). */
  readonly image: string;
  /** The provider's settings for the mock, credentials included (`mockAwsSettings`). */
  readonly settings: Readonly<Record<string, string>>;
  /** The provider's settings that are secrets (its plug-in's `secretSettings`). */
  readonly secretSettings: readonly string[];
  /** The Secret `credentialsSecret` builds; the release reads the secret settings from it. */
  readonly secretName: string;
  readonly clusterName: string;
  /** A Lease of its own, so a release of another provider before it cannot hold this one up. */
  readonly leaderElectionId: string;
  /** More top-level chart values, e.g. `extraVolumes` for a CA file the provider trusts. */
  readonly extraValues?: Readonly<Record<string, unknown>>;
}

/** One environment variable of the chart's `extraEnv`, read from a Secret. */
interface SecretEnv {
  readonly name: string;
  readonly valueFrom: { readonly secretKeyRef: { readonly name: string; readonly key: string } };
}

/**
 * Values for `helm install -f`, on top of the provider's values file: one replica (a kind
 * cluster has one node and the chart keeps replicas apart), the loaded image never pulled, no
 * workload identity for any cloud (a mock takes static keys or none), every setting that is
 * not a secret under `providerSettings`, and each secret one as an `extraEnv` variable from
 * the Secret. Pure.
 */
export function mockCloudReleaseValues(release: MockCloudRelease): Record<string, unknown> {
  const colon = release.image.lastIndexOf(':');
  if (colon <= 0) throw new Error(`image ${JSON.stringify(release.image)} has no tag`);
  const secret = new Set(release.secretSettings);
  const providerSettings: Record<string, string> = {};
  const extraEnv: SecretEnv[] = [];
  for (const [key, value] of Object.entries(release.settings)) {
    if (!secret.has(key)) providerSettings[key] = value;
    else
      extraEnv.push({
        name: settingVariable(key),
        valueFrom: { secretKeyRef: { name: release.secretName, key } },
      });
  }
  return {
    replicas: 1,
    image: {
      repository: release.image.slice(0, colon),
      tag: release.image.slice(colon + 1),
      pullPolicy: 'Never',
    },
    settings: { clusterName: release.clusterName, leaderElectionId: release.leaderElectionId },
    workloadIdentity: {
      aws: { roleArn: '' },
      azure: { clientId: '', tenantId: '' },
      gcp: { serviceAccount: '' },
    },
    providerSettings,
    extraEnv,
    ...release.extraValues,
  };
}

/** The Secret holding the secret settings, one key per setting. Pure. */
export function credentialsSecret(release: MockCloudRelease, namespace: string): Record<string, unknown> {
  const stringData = Object.fromEntries(
    Object.entries(release.settings).filter(([key]) => release.secretSettings.includes(key)),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: release.secretName, namespace },
    type: 'Opaque',
    stringData,
  };
}
