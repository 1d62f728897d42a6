import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unusableSshPublicKey } from './ssh-key.js';

describe('unusableSshPublicKey', () => {
  it('is an OpenSSH ed25519 public key holding a valid 32-byte key, fresh each time', () => {
    const key = unusableSshPublicKey();
    const [type, blob] = key.split(' ');
    expect(type).toBe('ssh-ed25519');
    const bytes = Buffer.from(blob!, 'base64');
    expect(bytes.readUInt32BE(0)).toBe(11);
    expect(bytes.subarray(4, 15).toString()).toBe('ssh-ed25519');
    expect(bytes.readUInt32BE(15)).toBe(32);
    const raw = bytes.subarray(19);
    expect(raw.length).toBe(32);
    // The raw key re-imports as an ed25519 public key.
    const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
    expect(createPublicKey({ key: der, format: 'der', type: 'spki' }).asymmetricKeyType).toBe('ed25519');
    expect(unusableSshPublicKey()).not.toBe(key);
  });
});
