import { describe, expect, it } from 'vitest';
import { k3sKubeconfigInput } from './k3s-kubeconfig.js';
import { connectionFromKubeconfig, renderKubeconfig } from './kubeconfig.js';

const pem = (label: string, body: string): string =>
  `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const ca = pem('CERTIFICATE', 'Y2E=');
const cert = pem('CERTIFICATE', 'Y2VydA==');
const key = pem('EC PRIVATE KEY', 'a2V5');

// The layout k3s writes, with the server as @testcontainers/k3s rewrites it.
const k3sYaml = (server = 'https://localhost:32771'): string => `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${b64(ca)}
    server: ${server}
  name: default
contexts:
- context:
    cluster: default
    user: default
  name: default
current-context: default
kind: Config
preferences: {}
users:
- name: default
  user:
    client-certificate-data: ${b64(cert)}
    client-key-data: ${b64(key)}
`;

describe('k3sKubeconfigInput', () => {
  it('extracts the server and decodes the embedded CA, client certificate and key', () => {
    expect(k3sKubeconfigInput(k3sYaml(), 'nw')).toEqual({
      name: 'nw',
      server: 'https://localhost:32771',
      caPem: ca,
      certPem: cert,
      keyPem: key,
    });
  });

  it('round-trips through renderKubeconfig into the same connection', () => {
    const rendered = JSON.parse(renderKubeconfig(k3sKubeconfigInput(k3sYaml('https://127.0.0.1:1'), 'nw')));
    expect(connectionFromKubeconfig(rendered, '/')).toEqual({
      server: 'https://127.0.0.1:1',
      ca,
      cert,
      key,
    });
  });

  it('accepts quoted values', () => {
    const quoted = k3sYaml().replace('server: https://localhost:32771', 'server: "https://localhost:9"');
    expect(k3sKubeconfigInput(quoted, 'nw').server).toBe('https://localhost:9');
  });

  it('refuses a kubeconfig with more than one cluster, or a missing field', () => {
    const twoClusters = `${k3sYaml()}\n- cluster:\n    server: https://other:6443\n`;
    expect(() => k3sKubeconfigInput(twoClusters, 'nw')).toThrow('has 2 server entries, expected exactly one');
    const noKey = k3sYaml().replace(/ {4}client-key-data: .*\n/, '');
    expect(() => k3sKubeconfigInput(noKey, 'nw')).toThrow('has 0 client-key-data entries');
  });

  it('refuses credentials that are not base64 PEM', () => {
    const bad = k3sYaml().replace(/client-key-data: .*/, `client-key-data: ${b64('not a pem')}`);
    expect(() => k3sKubeconfigInput(bad, 'nw')).toThrow('client-key-data is not base64 PEM');
  });
});
