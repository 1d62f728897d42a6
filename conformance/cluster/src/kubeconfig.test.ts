import { describe, expect, it } from 'vitest';
import { connectionFromKubeconfig, renderKubeconfig } from './kubeconfig.js';

const pem = (label: string) => `-----BEGIN ${label}-----\nMIIB${label.length}\n-----END ${label}-----\n`;

describe('renderKubeconfig', () => {
  it('round-trips through connectionFromKubeconfig with embedded credentials', () => {
    const text = renderKubeconfig({
      name: 'nw',
      server: 'https://127.0.0.1:6443',
      caPem: pem('CA'),
      certPem: pem('CERTIFICATE'),
      keyPem: pem('PRIVATE KEY'),
    });
    const connection = connectionFromKubeconfig(JSON.parse(text), '/nowhere', () => {
      throw new Error('no file should be read');
    });
    expect(connection).toEqual({
      server: 'https://127.0.0.1:6443',
      ca: pem('CA'),
      cert: pem('CERTIFICATE'),
      key: pem('PRIVATE KEY'),
    });
  });
});

describe('connectionFromKubeconfig', () => {
  const base = {
    'current-context': 'b',
    contexts: [
      { name: 'a', context: { cluster: 'one', user: 'u1' } },
      { name: 'b', context: { cluster: 'two', user: 'u2' } },
    ],
    clusters: [
      { name: 'one', cluster: { server: 'https://one' } },
      { name: 'two', cluster: { server: 'https://two', 'certificate-authority': 'certs/ca.pem' } },
    ],
    users: [
      { name: 'u1', user: { token: 'wrong' } },
      { name: 'u2', user: { token: 'right', 'client-certificate': '/abs/c.pem', 'client-key': 'k.pem' } },
    ],
  };

  it('follows the current context and resolves relative file references from the base dir', () => {
    const read: string[] = [];
    const connection = connectionFromKubeconfig(base, '/home/me/.kube', (p) => {
      read.push(p);
      return `content of ${p}`;
    });
    expect(connection.server).toBe('https://two');
    expect(connection.ca).toBe('content of /home/me/.kube/certs/ca.pem');
    expect(connection.cert).toBe('content of /abs/c.pem');
    expect(connection.key).toBe('content of /home/me/.kube/k.pem');
    expect(connection.bearerToken).toBe('right');
    expect(read).toHaveLength(3);
  });

  it('refuses exec plugins, which it cannot run', () => {
    const config = { ...base, users: [{ name: 'u2', user: { exec: { command: 'aws' } } }] };
    expect(() => connectionFromKubeconfig(config, '/')).toThrow(/plugin/);
  });

  it('names what is missing', () => {
    expect(() => connectionFromKubeconfig({ ...base, 'current-context': '' }, '/')).toThrow(
      /current-context/,
    );
    expect(() => connectionFromKubeconfig({ ...base, 'current-context': 'zzz' }, '/')).toThrow(
      /context named "zzz"/,
    );
  });
});
