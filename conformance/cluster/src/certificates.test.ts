import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCertExtensions, type ClusterCertificates, createCertificates } from './certificates.js';

let dir: string;
let certs: ClusterCertificates;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nw-certs-test-'));
  certs = await createCertificates(dir, 2);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('createCertificates', () => {
  it('makes an admin certificate in system:masters, signed by the CA', () => {
    const ca = new X509Certificate(certs.caPem);
    const admin = new X509Certificate(certs.adminCertPem);
    expect(ca.ca).toBe(true);
    expect(admin.ca).toBe(false);
    expect(admin.subject).toContain('O=system:masters');
    expect(admin.subject).toContain('CN=kubernetes-admin');
    expect(admin.checkIssued(ca)).toBe(true);
    expect(admin.verify(ca.publicKey)).toBe(true);
  });

  it('lets the admin certificate serve loopback and authenticate clients', () => {
    const admin = new X509Certificate(certs.adminCertPem);
    expect(admin.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(admin.checkHost('localhost')).toBe('localhost');
    expect(admin.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
  });

  it('honours the validity asked for', () => {
    const admin = new X509Certificate(certs.adminCertPem);
    const days = (Date.parse(admin.validTo) - Date.parse(admin.validFrom)) / 86_400_000;
    expect(Math.round(days)).toBe(2);
  });

  it('pairs the private key with the certificate', () => {
    // The same key file is the API server's service-account signing key.
    const key = createPrivateKey(certs.adminKeyPem);
    expect(new X509Certificate(certs.adminCertPem).checkPrivateKey(key)).toBe(true);
  });
});

describe('adminCertExtensions', () => {
  it('lists every SAN it is given', () => {
    expect(adminCertExtensions(['DNS:a', 'IP:1.2.3.4'])).toContain('subjectAltName = DNS:a, IP:1.2.3.4');
  });
});
