import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAzureSettings } from '@nodewright/azure';
import { ArmRequestTimeoutError, azureClients } from '@nodewright/azure/clients';
import { timedFailure as failure } from '@nodewright/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AzureMock, startAzureMock } from './azure-mock.js';

// Every ARM call the Azure provider makes has a deadline per attempt and one for connecting: a
// call ARM holds without answering fails at the deadline (each retry too), instead of holding a
// launch and the worker running it for as long as the cloud likes.

let mock: AzureMock | undefined;
let dir: string | undefined;
const sockets: Socket[] = [];
let silent: Server | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (silent === undefined ? resolve() : silent.close(() => resolve())));
  silent = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function settingsFor(endpoint: string, caPem: string, extra: Record<string, string>) {
  dir = await mkdtemp(join(tmpdir(), 'nodewright-azure-deadline-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, caPem);
  return parseAzureSettings({
    subscriptionId: '00000000-0000-0000-0000-000000000001',
    location: 'eastus',
    nodeResourceGroup: 'MC_rg_c1_eastus',
    kubernetesVersion: '1.33.2',
    armEndpoint: endpoint,
    caFile,
    staticAccessToken: 'mock-token',
    retryDelay: '10ms',
    ...extra,
  });
}

describe('azure clients: call deadlines', () => {
  it('a call held past the request deadline fails naming the operation, each attempt at the deadline', async () => {
    mock = await startAzureMock();
    mock.faults.latencyNext('getVm', 600_000, 100);
    const settings = await settingsFor(mock.endpoint, mock.caPem, { requestTimeout: '300ms' });
    const retries: string[] = [];
    const clients = await azureClients(
      { ...settings, subscriptionId: mock.subscriptionId },
      { onRetry: (_ms, why) => retries.push(why) },
    );
    try {
      const { err, ms } = await failure(clients.compute.getVirtualMachine(mock.resourceGroup, 'vm-1'));
      expect(err).toBeInstanceOf(ArmRequestTimeoutError);
      expect(err.message).toBe(
        'GET Microsoft.Compute/virtualMachines/vm-1: no answer from ARM within 0.3 s (the request deadline)',
      );
      // Six attempts (five retries) of 300 ms plus 10..160 ms of backoff: seconds, not 600 s.
      expect(retries).toHaveLength(5);
      expect(retries.every((why) => why.includes('no answer from ARM within 0.3 s'))).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(6 * 300);
      expect(ms).toBeLessThan(20_000);
      console.info(
        JSON.stringify({
          message: 'fault measured',
          fault: 'ARM getVm held 600 s, requestTimeout 300ms',
          attempts: retries.length + 1,
          'failed-after-ms': Math.round(ms),
          error: err.message,
        }),
      );
      // The hold was for getVm only: other calls are answered at once.
      const listed = [];
      for await (const vm of clients.compute.listVirtualMachines(mock.resourceGroup)) listed.push(vm);
      expect(listed).toEqual([]);
    } finally {
      clients.destroy();
    }
  });

  it('a host that accepts but never completes the TLS handshake fails at the connect deadline', async () => {
    mock = await startAzureMock();
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const settings = await settingsFor(`https://127.0.0.1:${port}`, mock.caPem, {
      connectTimeout: '200ms',
      requestTimeout: '30s',
    });
    const clients = await azureClients(settings);
    try {
      const { err, ms } = await failure(clients.compute.getVirtualMachine('rg', 'vm-1'));
      expect(err.message).toBe(
        'GET Microsoft.Compute/virtualMachines/vm-1: connecting to ARM took longer than 0.2 s',
      );
      // Six connect attempts of 200 ms plus backoff, far below the 30 s request deadline.
      expect(ms).toBeGreaterThanOrEqual(6 * 200);
      expect(ms).toBeLessThan(10_000);
      expect(sockets.length).toBe(6);
      console.info(
        JSON.stringify({
          message: 'fault measured',
          fault: 'ARM host accepts TCP, never completes TLS; connectTimeout 200ms',
          connections: sockets.length,
          'failed-after-ms': Math.round(ms),
          error: err.message,
        }),
      );
    } finally {
      clients.destroy();
    }
  });
});
