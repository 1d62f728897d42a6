import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const resolveFromHere = createRequire(import.meta.url).resolve;
const configUrl = pathToFileURL(resolveFromHere('@kubernetes/client-node/dist/config.js')).href;
const indexUrl = pathToFileURL(resolveFromHere('@kubernetes/client-node')).href;
const httpUrl = pathToFileURL(resolveFromHere('@kubernetes/client-node/dist/gen/http/http.js')).href;
const hooksUrl = new URL('./client-node-subset.ts', import.meta.url).href;

interface Outcome {
  readonly loaded: string[];
  readonly url: string;
  readonly authorization: string | undefined;
  /** Whether the package's own index, imported afterwards, has its API clients. */
  readonly indexHasClients: boolean;
}

/**
 * Loads KubeConfig in a fresh process (module hooks are process-wide, and this one must not
 * have loaded client-node yet), with or without the subset hooks, records every module URL
 * resolved, and uses the KubeConfig the way ClientNodeTransport does.
 */
async function loadKubeConfig(withSubset: boolean): Promise<Outcome> {
  const script = `
    import { registerHooks } from 'node:module';
    ${withSubset ? `registerHooks((await import(${JSON.stringify(hooksUrl)})).clientNodeSubsetHooks());` : ''}
    const loaded = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
    const { KubeConfig } = await import(${JSON.stringify(configUrl)});
    const { RequestContext, HttpMethod } = await import(${JSON.stringify(httpUrl)});
    const config = new KubeConfig();
    config.loadFromString(JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
      users: [{ name: 'u', user: { token: 'secret-token' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    }));
    // makeApiClient is what needs the generated index's createConfiguration and ServerConfiguration.
    const client = config.makeApiClient(class { constructor(c) { this.c = c; } });
    const url = client.c.baseServer.makeRequestContext('/api/v1/pods', HttpMethod.GET).getUrl();
    const context = new RequestContext('https://127.0.0.1:6443/api', HttpMethod.GET);
    await config.applySecurityAuthentication(context);
    const authorization = context.getHeaders().Authorization;
    const loadedBefore = [...loaded];
    const indexHasClients = typeof (await import(${JSON.stringify(indexUrl)})).CoreV1Api === 'function';
    process.stdout.write(JSON.stringify({ loaded: loadedBefore, url, authorization, indexHasClients }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout) as Outcome;
}

const generatedClients = (loaded: readonly string[]) =>
  loaded.filter((url) => /\/gen\/(types\/|models\/|apis\/\w+Api\.js$)/.test(url));

describe('clientNodeSubsetHooks', () => {
  it("loads KubeConfig without client-node's generated API clients and models, and it still works", async () => {
    const outcome = await loadKubeConfig(true);
    expect(generatedClients(outcome.loaded)).toEqual([]);
    expect(outcome.loaded.some((url) => url.endsWith('/client-node-gen-subset.ts'))).toBe(true);
    expect(outcome.url).toBe('https://127.0.0.1:6443/api/v1/pods');
    expect(outcome.authorization).toBe('Bearer secret-token');
    // Only config.js's import is redirected: the package itself is whole for whoever imports it.
    expect(outcome.indexHasClients).toBe(true);
  }, 60_000);

  it('is what keeps them out: without the hooks the same KubeConfig loads them all', async () => {
    const outcome = await loadKubeConfig(false);
    const generated = generatedClients(outcome.loaded);
    expect(generated.some((url) => url.endsWith('/gen/types/ObservableAPI.js'))).toBe(true);
    expect(generated.some((url) => url.endsWith('/gen/models/all.js'))).toBe(true);
    expect(outcome.authorization).toBe('Bearer secret-token');
  }, 60_000);
});
