import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ServingCertificate } from './https.js';

const run = promisify(execFile);

/** A CA made for one mock, and a serving certificate for localhost/127.0.0.1 it signed. */
export interface MockCertificates extends ServingCertificate {
  readonly caPem: string;
}

/** Makes a fresh CA and serving certificate with the `openssl` CLI, in a directory it removes. */
export async function createMockCertificates(): Promise<MockCertificates> {
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
        'extendedKeyUsage = serverAuth\nsubjectAltName = DNS:localhost, IP:127.0.0.1\n',
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
