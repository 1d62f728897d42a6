import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { describe, expect, it } from 'vitest';
import { ControllerFlagEnv } from '../operator/flag-environment.js';
import { BuiltinProviders } from '../providers/builtin-providers.js';
import { settingsReferenceMarkdown } from './settings-reference.js';

// docs/settings.md is generated from the flags and the built-in plug-ins: a flag or a provider
// setting added, renamed or removed fails this test until the page says so (UPDATE_SETTINGS_DOC=1).
const root = resolve(import.meta.dirname, '../../../..');
const doc = join(root, 'docs', 'settings.md');

async function plugins(): Promise<ProviderPlugin[]> {
  return Promise.all(
    BuiltinProviders.map(async (p) => ((await p.load()) as { default: ProviderPlugin }).default),
  );
}

describe('docs/settings.md', () => {
  it('lists every controller flag with its variable and every built-in provider setting', async () => {
    const all = await plugins();
    const expected = settingsReferenceMarkdown(all);
    for (const [flag, variable] of Object.entries(ControllerFlagEnv)) {
      expect(expected).toContain(`| \`--${flag}\` | \`${variable}\` |`);
    }
    expect(expected).toContain('| `region` | `NODEWRIGHT_SETTING_REGION` |');
    expect(expected).toMatch(
      /\| `secretAccessKey` \| `NODEWRIGHT_SETTING_SECRET_ACCESS_KEY` \| .* Credential: variable only\. \|/,
    );
    if (process.env.UPDATE_SETTINGS_DOC === '1') writeFileSync(doc, expected);
    expect(readFileSync(doc, 'utf8'), 'docs/settings.md is stale: run with UPDATE_SETTINGS_DOC=1').toBe(
      expected,
    );
  });
});
