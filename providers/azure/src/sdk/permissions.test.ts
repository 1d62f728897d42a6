import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { armClients } from './arm-clients.js';
import { ArmActionsByCall, requiredArmActions } from './permissions.js';

/** The Actions of the README's custom role (the JSON block under its heading). */
function readmeRoleActions(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Custom role'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README: no json block under "## Custom role"');
  return [...(JSON.parse(block) as { Actions: string[] }).Actions].sort();
}

describe('ARM actions', () => {
  it('are listed for exactly the calls the real SDK adapter makes', () => {
    const clients = armClients({
      subscriptionId: '00000000-0000-0000-0000-000000000000',
      credential: { getToken: async () => null },
    });
    const calls = [
      ...Object.keys(clients.compute).map((m) => `compute.${m}`),
      ...Object.keys(clients.network).map((m) => `network.${m}`),
    ].sort();
    expect(Object.keys(ArmActionsByCall).sort()).toEqual(calls);
  });

  it('are exactly what the README custom role allows: nothing missing, nothing unused', () => {
    expect(readmeRoleActions()).toEqual(requiredArmActions());
  });
});
