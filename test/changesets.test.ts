import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePackages } from './workspace-packages.js';

// The CHANGELOGs are written from the changesets in .changeset/ by `pnpm changeset version`: a
// changeset naming a package that is not in the workspace, or a bump that is not one, would stop
// that release step long after the change that wrote it.
const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.changeset');

function workspaceNames(): Set<string> {
  return new Set(workspacePackages(root).flatMap(({ manifest }) => (manifest.name ? [manifest.name] : [])));
}

/** The package -> bump lines of a changeset's front matter, or an error naming what is wrong. */
function changesetBumps(file: string, text: string): Map<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (match === null) throw new Error(`${file}: no front matter between --- lines`);
  const bumps = new Map<string, string>();
  for (const line of (match[1] ?? '').split('\n').filter((l) => l.trim() !== '')) {
    const entry = /^"([^"]+)":\s*(major|minor|patch)$/.exec(line.trim());
    if (entry === null) throw new Error(`${file}: "${line}" is not '"package": major|minor|patch'`);
    bumps.set(entry[1] ?? '', entry[2] ?? '');
  }
  if ((match[2] ?? '').trim() === '') throw new Error(`${file}: no description after the front matter`);
  return bumps;
}

describe('.changeset', () => {
  const names = workspaceNames();
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');

  it('holds at least one changeset, and a config that publishes publicly from main', () => {
    expect(files.length).toBeGreaterThan(0);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ access: 'public', baseBranch: 'main' });
  });

  it.each(files)('%s names workspace packages with a valid bump and describes the change', (file) => {
    const bumps = changesetBumps(file, readFileSync(join(dir, file), 'utf8'));
    expect(bumps.size).toBeGreaterThan(0);
    for (const name of bumps.keys()) expect(names, `${file} names ${name}`).toContain(name);
  });

  it('refuses a changeset with a bump that is not one, naming the file and the line', () => {
    expect(() => changesetBumps('x.md', '---\n"@nodewright/core": huge\n---\n\nText\n')).toThrow(
      `x.md: ""@nodewright/core": huge" is not '"package": major|minor|patch'`,
    );
    expect(() => changesetBumps('y.md', 'no front matter')).toThrow('y.md: no front matter');
  });
});
