import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freeClusterPorts, freePorts } from './ports.js';

const canBind = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

describe('freePorts', () => {
  it('returns distinct ports that are free again once returned', async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) expect(await canBind(port)).toBe(true);
  });
});

describe('freeClusterPorts', () => {
  it('gives every listener its own port', async () => {
    const ports = Object.values(await freeClusterPorts());
    expect(ports).toHaveLength(6);
    expect(new Set(ports).size).toBe(6);
  });
});
