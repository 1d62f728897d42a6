import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A clone of this repository is all a user or contributor has: a link, a path or a citation
// that leaves the repository (to the sibling briefing folder, or above the root) is a
// broken promise in every clone.
const root = resolve(import.meta.dirname, '..');
// This file spells the forbidden path out in its own cases.
const self = 'test/stands-alone.test.ts';
// Spelt in parts so that this file holds no reference of its own.
const briefing = ['..', 'shared'].join('/');
const briefingPattern = new RegExp(`(^|[^\\w.])${briefing.replace(/[./]/g, '\\$&')}\\b`);

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\0')
    .filter(
      (f) =>
        f.length > 0 &&
        f !== self &&
        !f.endsWith('pnpm-lock.yaml') &&
        !/\.(png|jpe?g|gif|ico|gz|tgz)$/.test(f),
    );
}

/** Lines naming a path outside the repository: the briefing folder, or a relative link above the root. */
function outsideReferences(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (briefingPattern.test(line) || /\]\((\.\.\/)+(?!\.)[^)]*\)/.test(line)) {
      found.push(`${path}:${i + 1}: ${line.trim()}`);
    }
  });
  return found;
}

describe('the repository stands alone', () => {
  it('finds a reference to the briefing folder and a markdown link above the root', () => {
    expect(outsideReferences('README.md', `see ${briefing}/DESIGN.md`)).toHaveLength(1);
    expect(outsideReferences('docs/a.md', 'see [x](../../elsewhere.md)')).toHaveLength(1);
    expect(outsideReferences('docs/a.md', 'see [x](architecture.md) and ./shared/x')).toHaveLength(0);
  });

  it('no tracked file refers to the briefing folder', () => {
    const hits = trackedTextFiles().flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        return [];
      }
      if (text.includes('\0')) return [];
      // Links inside a sub-folder's README may go up to another folder of the repository;
      // only the briefing folder, which no clone has, is refused there.
      return outsideReferences(file, text).filter(
        (hit) => file.split('/').length === 1 || hit.includes(briefing),
      );
    });
    expect(hits).toEqual([]);
  });
});
