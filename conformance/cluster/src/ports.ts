import { createServer, type Server } from 'node:net';
import type { ClusterPorts } from './components.js';

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no TCP address'));
      else resolve(address.port);
    });
  });
}

/**
 * Distinct free loopback ports, found by binding port 0. All are held open until every one
 * is chosen, so the kernel cannot hand the same port out twice; another process may still
 * take one before the component binds it, which start-up reports as that component failing.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    const ports: number[] = [];
    for (const server of servers) ports.push(await listen(server));
    return ports;
  } finally {
    await Promise.all(
      servers.map(
        (s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve())),
      ),
    );
  }
}

/** One free port per listener of the control plane. */
export async function freeClusterPorts(): Promise<ClusterPorts> {
  const [etcdClient, etcdPeer, apiServer, controllerManager, scheduler, kwok] = await freePorts(6);
  return {
    etcdClient: etcdClient!,
    etcdPeer: etcdPeer!,
    apiServer: apiServer!,
    controllerManager: controllerManager!,
    scheduler: scheduler!,
    kwok: kwok!,
  };
}
