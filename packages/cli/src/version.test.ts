import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { versionLine } from './version.js';

describe('versionLine', () => {
  it("names the package's version and the running Node", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(versionLine('24.9.0')).toBe(`nodewright ${manifest.version} (node v24.9.0)`);
  });
});
