import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { PooledAuthentication } from './pooled-authentication.js';

const pem = (text: string) => Buffer.from(text).toString('base64');

interface UserOptions {
  readonly token?: string;
  readonly certData?: string;
  readonly username?: string;
  readonly password?: string;
}

function kubeConfig(user: UserOptions, cluster: { server?: string; caData?: string } = {}): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: cluster.server ?? 'https://kube.test:6443',
        caData: cluster.caData ?? pem('ca-1'),
      },
    ],
    users: [{ name: 'u', keyData: pem('key-1'), ...user }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return config;
}

async function authenticate(auth: PooledAuthentication): Promise<RequestContext> {
  const context = new RequestContext('https://kube.test:6443/api/v1/pods', HttpMethod.GET);
  await auth.applySecurityAuthentication(context);
  return context;
}

describe('PooledAuthentication', () => {
  it('hands every request the same connection pool while the TLS identity holds', async () => {
    const auth = new PooledAuthentication(kubeConfig({ certData: pem('cert-1'), token: 'tok' }));
    const first = await authenticate(auth);
    const second = await authenticate(auth);
    const third = await authenticate(auth);
    expect(first.getDispatcher()).toBeDefined();
    expect(second.getDispatcher()).toBe(first.getDispatcher());
    expect(third.getDispatcher()).toBe(first.getDispatcher());
  });

  it('applies header credentials to each request, as client-node does', async () => {
    const config = kubeConfig({ certData: pem('cert-1'), token: 'tok-1' });
    const auth = new PooledAuthentication(config);
    expect((await authenticate(auth)).getHeaders().Authorization).toBe('Bearer tok-1');
    // A token that changes (a refreshed file or exec credential) is sent at once, same pool.
    const user = config.getCurrentUser();
    if (user === null) throw new Error('no user');
    (user as { token?: string }).token = 'tok-2';
    expect((await authenticate(auth)).getHeaders().Authorization).toBe('Bearer tok-2');

    const plain = new RequestContext('https://kube.test:6443/api', HttpMethod.GET);
    await kubeConfig({ certData: pem('cert-1'), token: 'tok-2' }).applySecurityAuthentication(plain);
    const pooled = await authenticate(auth);
    expect(pooled.getHeaders()).toEqual(plain.getHeaders());
  });

  it('sends basic auth on pooled requests too', async () => {
    const auth = new PooledAuthentication(kubeConfig({ username: 'admin', password: 'pw' }));
    await authenticate(auth);
    const pooled = await authenticate(auth);
    expect(pooled.getHeaders().Authorization).toBe(`Basic ${Buffer.from('admin:pw').toString('base64')}`);
  });

  it('opens a new pool when the client certificate or the CA changes', async () => {
    const config = kubeConfig({ certData: pem('cert-1') });
    const auth = new PooledAuthentication(config);
    const before = (await authenticate(auth)).getDispatcher();
    const user = config.getCurrentUser();
    if (user === null) throw new Error('no user');
    (user as { certData?: string }).certData = pem('cert-2');
    const rotated = (await authenticate(auth)).getDispatcher();
    expect(rotated).toBeDefined();
    expect(rotated).not.toBe(before);
    expect((await authenticate(auth)).getDispatcher()).toBe(rotated);

    const cluster = config.getCurrentCluster();
    if (cluster === null) throw new Error('no cluster');
    (cluster as { caData?: string }).caData = pem('ca-2');
    expect((await authenticate(auth)).getDispatcher()).not.toBe(rotated);
  });

  it('keeps pools of different KubeConfigs apart', async () => {
    const a = await authenticate(new PooledAuthentication(kubeConfig({ certData: pem('cert-1') })));
    const b = await authenticate(new PooledAuthentication(kubeConfig({ certData: pem('cert-1') })));
    expect(a.getDispatcher()).not.toBe(b.getDispatcher());
  });

  it('rejects plain http without skipTLSVerify, as client-node does', async () => {
    const auth = new PooledAuthentication(kubeConfig({ token: 't' }, { server: 'http://kube.test' }));
    await expect(authenticate(auth)).rejects.toThrow(/HTTP protocol is not allowed/);
  });
});
