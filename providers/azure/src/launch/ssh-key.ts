import { generateKeyPairSync } from 'node:crypto';

const sshString = (b: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
};

/**
 * A fresh ed25519 public key in OpenSSH format whose private key is discarded at once. ARM
 * refuses a Linux VM with password login disabled and no SSH key, so nodes launched without the
 * `sshPublicKey` setting carry this one: nobody can log in with it.
 */
export function unusableSshPublicKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  // The raw 32-byte key is the tail of its SPKI DER encoding.
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} nodewright-no-login`;
}
