import { describe, expect, it } from 'vitest';
import type { KubeHttpClient } from './kube-http.js';
import { connectionFromKubeconfig } from './kubeconfig.js';
import { serviceAccountKubeconfig } from './service-account-kubeconfig.js';

/** A client answering every POST with `reply`, recording what it was asked. */
function clientAnswering(reply: { status: number; body: unknown }) {
  const calls: { path: string; body: unknown }[] = [];
  const client = {
    post: async (path: string, body: unknown) => {
      calls.push({ path, body });
      return { ...reply, text: JSON.stringify(reply.body) };
    },
  } as unknown as KubeHttpClient;
  return { client, calls };
}

const input = {
  name: 'sa',
  server: 'https://127.0.0.1:6443',
  caPem: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n',
  serviceAccount: { namespace: 'nodewright', name: 'controller' },
};

describe('serviceAccountKubeconfig', () => {
  it('requests a token for the ServiceAccount and embeds it: the kubeconfig authenticates as it', async () => {
    const { client, calls } = clientAnswering({ status: 201, body: { status: { token: 'tok-1' } } });
    const text = await serviceAccountKubeconfig(client, input);
    expect(calls).toEqual([
      {
        path: '/api/v1/namespaces/nodewright/serviceaccounts/controller/token',
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      },
    ]);
    expect(connectionFromKubeconfig(JSON.parse(text), '/')).toEqual({
      server: input.server,
      ca: input.caPem,
      bearerToken: 'tok-1',
    });
  });

  it("throws with the server's answer when the TokenRequest is refused", async () => {
    const { client } = clientAnswering({ status: 403, body: { message: 'forbidden' } });
    await expect(serviceAccountKubeconfig(client, input)).rejects.toThrow(
      /nodewright\/controller answered 403.*forbidden/,
    );
  });
});
