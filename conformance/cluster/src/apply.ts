import type { KubeHttpClient } from './kube-http.js';
import type { KubeManifest } from './kwok-manifests.js';

/** REST plural and scope of the kinds the launchers install; others are refused, not guessed. */
const RESOURCES: Readonly<Record<string, { plural: string; namespaced: boolean }>> = {
  ServiceAccount: { plural: 'serviceaccounts', namespaced: true },
  ClusterRole: { plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { plural: 'clusterrolebindings', namespaced: false },
  CustomResourceDefinition: { plural: 'customresourcedefinitions', namespaced: false },
  Deployment: { plural: 'deployments', namespaced: true },
  Stage: { plural: 'stages', namespaced: false },
};

/** The field manager of everything the launchers apply. */
export const FIELD_MANAGER = 'nodewright-conformance';

/** The object's URL path (no query). Pure; throws on kinds not in the table or a missing namespace. */
export function objectPath(manifest: KubeManifest): string {
  const resource = RESOURCES[manifest.kind];
  if (!resource) {
    throw new Error(
      `cannot apply ${manifest.kind} ${manifest.metadata.name}: kind not known to the launcher`,
    );
  }
  const base = manifest.apiVersion.includes('/')
    ? `/apis/${manifest.apiVersion}`
    : `/api/${manifest.apiVersion}`;
  const namespace = manifest.metadata.namespace;
  if (resource.namespaced && !namespace) {
    throw new Error(`${manifest.kind} ${manifest.metadata.name} needs a namespace`);
  }
  const scope = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace!)}` : '';
  return `${base}${scope}/${resource.plural}/${encodeURIComponent(manifest.metadata.name)}`;
}

/**
 * Server-side apply of one object (create or update, idempotent); throws with the server's
 * message. `dryRun` has the server validate and admit the object without storing it.
 */
export async function applyManifest(
  client: KubeHttpClient,
  manifest: KubeManifest,
  options: { dryRun?: boolean } = {},
): Promise<void> {
  const dryRun = options.dryRun ? '&dryRun=All' : '';
  const path = `${objectPath(manifest)}?fieldManager=${FIELD_MANAGER}&force=true${dryRun}`;
  // JSON is YAML, so the apply-patch+yaml content type takes the object as JSON.
  const res = await client.request<{ message?: string }>('PATCH', path, {
    body: manifest,
    contentType: 'application/apply-patch+yaml',
  });
  if (res.status < 200 || res.status >= 300) {
    throw new Error(
      `applying ${manifest.kind} ${manifest.metadata.name} answered ${res.status}: ` +
        `${typeof res.body === 'object' && res.body?.message ? res.body.message : res.text}`,
    );
  }
}
