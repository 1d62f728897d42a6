import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files of a cluster's single CA and its admin certificate. */
export interface ClusterCertificates {
  caCertFile: string;
  caKeyFile: string;
  adminCertFile: string;
  adminKeyFile: string;
  caPem: string;
  adminCertPem: string;
  adminKeyPem: string;
}

/**
 * Subject alternative names of the admin certificate. It is also the API server's serving
 * certificate, so it names loopback and the in-cluster service names.
 */
export const ADMIN_CERT_SANS = [
  'DNS:localhost',
  'IP:127.0.0.1',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
  'IP:10.96.0.1',
] as const;

/** The openssl extension section for the admin certificate: server and client use. */
export function adminCertExtensions(sans: readonly string[] = ADMIN_CERT_SANS): string {
  return [
    'basicConstraints = critical, CA:FALSE',
    'keyUsage = critical, digitalSignature, keyEncipherment',
    'extendedKeyUsage = serverAuth, clientAuth',
    `subjectAltName = ${sans.join(', ')}`,
    '',
  ].join('\n');
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`openssl ${args[0]} failed: ${stderr.trim() || String(error)}`, { cause: error });
  }
}

/**
 * Creates, in `dir`, a CA and an admin certificate signed by it (CN=kubernetes-admin,
 * O=system:masters, so RBAC grants it everything). Needs the `openssl` CLI.
 */
export async function createCertificates(dir: string, validDays = 30): Promise<ClusterCertificates> {
  // No argument contains a space, so each command line reads as one string.
  const args = (line: string): string[] => line.split(' ');
  await openssl(
    args(
      `req -x509 -newkey rsa:2048 -nodes -sha256 -days ${validDays} -keyout ca.key -out ca.crt ` +
        '-subj /CN=nodewright-test-ca -addext basicConstraints=critical,CA:TRUE ' +
        '-addext keyUsage=critical,keyCertSign,cRLSign',
    ),
    dir,
  );
  await openssl(
    args(
      'req -newkey rsa:2048 -nodes -sha256 -keyout admin.key -out admin.csr -subj /O=system:masters/CN=kubernetes-admin',
    ),
    dir,
  );
  await writeFile(join(dir, 'admin.ext'), adminCertExtensions());
  await openssl(
    args(
      'x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 ' +
        `-days ${validDays} -extfile admin.ext -out admin.crt`,
    ),
    dir,
  );
  const file = (name: string): string => join(dir, name);
  return {
    caCertFile: file('ca.crt'),
    caKeyFile: file('ca.key'),
    adminCertFile: file('admin.crt'),
    adminKeyFile: file('admin.key'),
    caPem: await readFile(file('ca.crt'), 'utf8'),
    adminCertPem: await readFile(file('admin.crt'), 'utf8'),
    adminKeyPem: await readFile(file('admin.key'), 'utf8'),
  };
}
