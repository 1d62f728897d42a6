import type { CertificateKubeconfigInput } from './kubeconfig.js';

const FIELDS = {
  server: 'server',
  caPem: 'certificate-authority-data',
  certPem: 'client-certificate-data',
  keyPem: 'client-key-data',
} as const;

/**
 * Reads the one-cluster YAML kubeconfig k3s writes (`/etc/rancher/k3s/k3s.yaml`, with the
 * server rewritten to the mapped port by @testcontainers/k3s) into renderKubeconfig's input,
 * so the suite gets a JSON kubeconfig it can read without kubectl or a YAML parser. Only the
 * shape k3s writes is supported: each field exactly once, credentials embedded as base64.
 */
export function k3sKubeconfigInput(yaml: string, name: string): CertificateKubeconfigInput {
  const value = (key: string): string => {
    const matches = [...yaml.matchAll(new RegExp(`^\\s*${key}:\\s*["']?([^\\s"']+)["']?\\s*$`, 'gm'))];
    if (matches.length !== 1) {
      throw new Error(
        `k3s kubeconfig has ${matches.length} ${key} entries, expected exactly one ` +
          '(only the single-cluster file k3s writes is supported)',
      );
    }
    return matches[0]![1]!;
  };
  const pem = (key: string): string => {
    const text = Buffer.from(value(key), 'base64').toString('utf8');
    if (!text.startsWith('-----BEGIN ')) throw new Error(`k3s kubeconfig ${key} is not base64 PEM`);
    return text;
  };
  return {
    name,
    server: value(FIELDS.server),
    caPem: pem(FIELDS.caPem),
    certPem: pem(FIELDS.certPem),
    keyPem: pem(FIELDS.keyPem),
  };
}
