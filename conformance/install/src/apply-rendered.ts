import type { KubeHttpClient } from '@nodewright/conformance/cluster';
import type { RenderedObject } from './helm.js';

/** REST plural and scope of each kind the charts render; anything else is refused, not guessed. */
const Kinds: Readonly<Record<string, { plural: string; namespaced: boolean }>> = {
  CustomResourceDefinition: { plural: 'customresourcedefinitions', namespaced: false },
  Namespace: { plural: 'namespaces', namespaced: false },
  ServiceAccount: { plural: 'serviceaccounts', namespaced: true },
  Service: { plural: 'services', namespaced: true },
  ClusterRole: { plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { plural: 'clusterrolebindings', namespaced: false },
  Role: { plural: 'roles', namespaced: true },
  RoleBinding: { plural: 'rolebindings', namespaced: true },
  Deployment: { plural: 'deployments', namespaced: true },
  PodDisruptionBudget: { plural: 'poddisruptionbudgets', namespaced: true },
};

/** The object's URL path. @throws for a kind not in the table or a namespaced object without one. */
export function renderedObjectPath(object: RenderedObject): string {
  const kind = Kinds[object.kind];
  if (kind === undefined)
    throw new Error(`${object.kind} ${object.metadata.name}: kind not known to the test`);
  const base = object.apiVersion.includes('/') ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = object.metadata.namespace;
  if (kind.namespaced && namespace === undefined)
    throw new Error(`${object.kind} ${object.metadata.name} needs a namespace`);
  const scope = kind.namespaced ? `/namespaces/${encodeURIComponent(namespace!)}` : '';
  return `${base}${scope}/${kind.plural}/${encodeURIComponent(object.metadata.name)}`;
}

/**
 * Server-side applies one rendered object as `helm install` would create it; `dryRun` has the
 * server validate and admit it (every admission step) without storing it. @throws with the
 * server's message when it is refused.
 */
export async function applyRendered(
  client: KubeHttpClient,
  object: RenderedObject,
  options: { dryRun?: boolean } = {},
): Promise<void> {
  const dryRun = options.dryRun ? '&dryRun=All' : '';
  const res = await client.request<{ message?: string }>(
    'PATCH',
    `${renderedObjectPath(object)}?fieldManager=helm&force=true${dryRun}`,
    { body: object, contentType: 'application/apply-patch+yaml' },
  );
  if (res.status < 200 || res.status >= 300) {
    const message = typeof res.body === 'object' && res.body?.message ? res.body.message : res.text;
    throw new Error(`${object.kind} ${object.metadata.name} refused (${res.status}): ${message}`);
  }
}
