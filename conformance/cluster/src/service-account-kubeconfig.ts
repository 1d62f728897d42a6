import type { KubeHttpClient } from './kube-http.js';
import { renderKubeconfig } from './kubeconfig.js';

/** Where a ServiceAccount kubeconfig points and whom it names. */
export interface ServiceAccountKubeconfigInput {
  /** Context, cluster and user name in the kubeconfig. */
  readonly name: string;
  readonly server: string;
  readonly caPem: string;
  readonly serviceAccount: { readonly namespace: string; readonly name: string };
  /** Default one hour: longer than any test that uses it. */
  readonly expirationSeconds?: number;
}

/**
 * A kubeconfig that authenticates as a ServiceAccount, as a Pod mounting its token would: a
 * TokenRequest through `client` (an admin's), the token embedded. Tests run a component with
 * it to prove the RBAC it ships is enough.
 * @throws with the server's answer when the TokenRequest is refused.
 */
export async function serviceAccountKubeconfig(
  client: KubeHttpClient,
  input: ServiceAccountKubeconfigInput,
): Promise<string> {
  const { namespace, name } = input.serviceAccount;
  const res = await client.post<{ status?: { token?: string } }>(
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: input.expirationSeconds ?? 3600 },
    },
  );
  const token = res.body?.status?.token;
  if (res.status !== 201 || token === undefined) {
    throw new Error(`TokenRequest for ${namespace}/${name} answered ${res.status}: ${res.text}`);
  }
  return renderKubeconfig({ name: input.name, server: input.server, caPem: input.caPem, token });
}
