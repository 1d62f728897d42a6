import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../clock/clock.js';
import { SystemTimers } from '../../clock/timers.js';
import { timedFailure as failure } from '../../testing/timed-failure.js';
import { Nodes, Pods } from '../resource-types.js';
import { ClientNodeCluster } from './client-node-cluster.js';
import { silentLogger } from './logger.js';
import { KubeRequestTimeoutError } from './request-deadline.js';

// An API server that accepts connections and reads requests but never answers: every call
// through the real transport must give up at its deadline, naming what it was doing.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function hungServer(): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req) => {
    seen.push(req);
    req.resume();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function clusterAt(url: string, requestTimeouts: { requestMs: number; listMs: number }) {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return new ClientNodeCluster({
    kubeConfig,
    fieldManager: 'nodewright-test',
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
    requestTimeouts,
  });
}

describe('ClientNodeCluster: request deadlines against a server that never answers', () => {
  it('a get, a patch and an eviction each fail at the request deadline, naming verb and resource', async () => {
    const { url, seen } = await hungServer();
    const cluster = clusterAt(url, { requestMs: 300, listMs: 5_000 });
    const get = await failure(cluster.get(Nodes, { name: 'node-a' }));
    expect(get.err).toBeInstanceOf(KubeRequestTimeoutError);
    expect(get.err.message).toBe('get nodes node-a: no answer from the API server within 0.3 s');
    expect((get.err as KubeRequestTimeoutError).code).toBe(504);
    expect(get.ms).toBeGreaterThanOrEqual(290);
    expect(get.ms).toBeLessThan(3_000);

    const patch = await failure(
      cluster.patchStatus(Pods, { name: 'web-0', namespace: 'shop' }, { status: {} }),
    );
    expect(patch.err.message).toBe(
      'patch pods/status shop/web-0: no answer from the API server within 0.3 s',
    );
    const evict = await failure(cluster.evict({ name: 'web-1', namespace: 'shop' }));
    expect(evict.err.message).toBe('evict pods shop/web-1: no answer from the API server within 0.3 s');
    expect(seen.map((r) => r.method)).toEqual(['GET', 'PATCH', 'POST']);
    // The abandoned requests were aborted, not left open on the server.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.every((r) => r.destroyed)).toBe(true);
    console.info(
      JSON.stringify({
        message: 'fault measured',
        fault: 'API server accepts and never answers; request deadline 300 ms',
        'get-failed-after-ms': Math.round(get.ms),
        'patch-failed-after-ms': Math.round(patch.ms),
        'evict-failed-after-ms': Math.round(evict.ms),
        'requests-left-open': seen.filter((r) => !r.destroyed).length,
        error: get.err.message,
      }),
    );
  });

  it('a list gets the longer list deadline', async () => {
    const { url } = await hungServer();
    const cluster = clusterAt(url, { requestMs: 200, listMs: 900 });
    const list = await failure(cluster.list(Pods, { namespace: 'shop' }));
    expect(list.err.message).toBe('list pods in namespace shop: no answer from the API server within 0.9 s');
    expect(list.ms).toBeGreaterThanOrEqual(890);
    expect(list.ms).toBeLessThan(5_000);
    console.info(
      JSON.stringify({
        message: 'fault measured',
        fault: 'API server never answers a list; list deadline 900 ms',
        'list-failed-after-ms': Math.round(list.ms),
        error: list.err.message,
      }),
    );
  });
});
