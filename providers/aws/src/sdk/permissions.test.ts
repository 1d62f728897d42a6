import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProviderPermissions, requiredActions } from './permissions.js';

/** The Action entries of the README's least-privilege policy (the JSON block under its heading). */
function readmePolicyActions(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## IAM policy'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README: no json block under "## IAM policy"');
  const policy = JSON.parse(block) as { Statement: Array<{ Effect: string; Action: string | string[] }> };
  return [
    ...new Set(
      policy.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) =>
        Array.isArray(s.Action) ? s.Action : [s.Action],
      ),
    ),
  ].sort();
}

describe('ProviderPermissions', () => {
  it("names each port method's own action first (describeSubnets -> ec2:DescribeSubnets)", () => {
    for (const [service, port] of Object.entries(ProviderPermissions)) {
      for (const [method, actions] of Object.entries(port as Record<string, readonly string[]>)) {
        expect(actions[0]).toBe(`${service}:${method.charAt(0).toUpperCase()}${method.slice(1)}`);
      }
    }
  });

  it('is exactly what the README policy allows: nothing missing, nothing unused', () => {
    expect(readmePolicyActions()).toEqual(requiredActions());
  });
});
