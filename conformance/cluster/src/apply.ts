import type { KubeHttpClient } from './kube-http.js';

/**
 * REST plural and scope of the kinds the launchers and the charts install; others are refused,
 * not guessed.
 */
const RESOURCES: Readonly<Record<string, { plural: string; namespaced: boolean }>> = {
  Namespace: { plural: 'namespaces', namespaced: false },
  ServiceAccount: { plural: 'serviceaccounts', namespaced: true },
  Service: { plural: 'services', namespaced: true },
  ClusterRole: { plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { plural: 'clusterrolebindings', namespaced: false },
  Role: { plural: 'roles', namespaced: true },
  RoleBinding: { plural: 'rolebindings', namespaced: true },
  CustomResourceDefinition: { plural: 'customresourcedefinitions', namespaced: false },
  Deployment: { plural: 'deployments', namespaced: true },
  PodDisruptionBudget: { plural: 'poddisruptionbudgets', namespaced: true },
  Stage: { plural: 'stages', namespaced: false },
};

/** What `applyManifest` needs of an object: its type and name; the rest goes to the server as is. */
export interface AppliedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

/** The field manager of everything the launchers apply. */
export const FIELD_MANAGER = 'nodewright-conformance';

/** The object's URL path (no query). Pure; throws on kinds not in the table or a missing namespace. */
export function objectPath(manifest: AppliedObject): string {
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
 * message. `dryRun` has the server validate and admit the object without storing it;
 * `fieldManager` (default {@link FIELD_MANAGER}) names who applied it, e.g. `helm` for what a
 * `helm install` would create.
 */
export async function applyManifest(
  client: KubeHttpClient,
  manifest: AppliedObject,
  options: { readonly dryRun?: boolean; readonly fieldManager?: string } = {},
): Promise<void> {
  const dryRun = options.dryRun ? '&dryRun=All' : '';
  const manager = encodeURIComponent(options.fieldManager ?? FIELD_MANAGER);
  const path = `${objectPath(manifest)}?fieldManager=${manager}&force=true${dryRun}`;
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
