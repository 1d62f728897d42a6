import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ServingCertificate } from './https.js';

const run = promisify(execFile);

/** A CA made for one mock, and a serving certificate for localhost/127.0.0.1 (and more) it signed. */
export interface MockCertificates extends ServingCertificate {
  readonly caPem: string;
}

/**
 * Makes a fresh CA and serving certificate with the `openssl` CLI, in a directory it removes.
 * The certificate names localhost, 127.0.0.1 and each of `ipAddresses` (e.g. the address a
 * controller in a kind cluster reaches the mock at).
 */
export async function createMockCertificates(ipAddresses: readonly string[] = []): Promise<MockCertificates> {
  for (const ip of ipAddresses) {
    if (!/^[0-9a-fA-F:.]+$/.test(ip))
      throw new Error(`mock certificate: ${JSON.stringify(ip)} is not an IP address`);
  }
  const altNames = [
    'DNS:localhost',
    'IP:127.0.0.1',
    ...ipAddresses.filter((ip) => ip !== '127.0.0.1').map((ip) => `IP:${ip}`),
  ];
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-azure-mock-'));
  const openssl = (line: string) => run('openssl', line.split(' '), { cwd: dir });
  try {
    await openssl(
      'req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -keyout ca.key -out ca.crt -subj /CN=nodewright-azure-mock-ca ' +
        '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign',
    );
    await openssl(
      'req -newkey rsa:2048 -nodes -sha256 -keyout server.key -out server.csr -subj /CN=localhost',
    );
    await writeFile(
      join(dir, 'server.ext'),
      'basicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature, keyEncipherment\n' +
        `extendedKeyUsage = serverAuth\nsubjectAltName = ${altNames.join(', ')}\n`,
    );
    await openssl(
      'x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 -days 2 -extfile server.ext -out server.crt',
    );
    return {
      caPem: await readFile(join(dir, 'ca.crt'), 'utf8'),
      cert: await readFile(join(dir, 'server.crt'), 'utf8'),
      key: await readFile(join(dir, 'server.key'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
