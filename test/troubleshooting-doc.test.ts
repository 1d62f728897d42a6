import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/troubleshooting.md quotes the CLI's output on the shipped examples; each quoted line must
// be what the built CLI prints on them today, so the guide cannot drift from the messages.
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');

function output(args: readonly string[]): string {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' });
  if (result.error) throw result.error;
  return result.stdout;
}

/** The lines of the plain (not shell) code blocks that follow "(from `examples/NAME`)". */
function quotedOutputs(markdown: string): Map<string, string[]> {
  const quoted = new Map<string, string[]>();
  let example: string | undefined;
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    const from = /\(from `examples\/([\w-]+)`\)/.exec(line);
    if (from?.[1] !== undefined) example = from[1];
    if (line.startsWith('```')) {
      if (inBlock) inBlock = false;
      else if (line.trim() === '```' && example !== undefined) inBlock = true;
      else example = undefined;
      continue;
    }
    if (inBlock && example !== undefined && line.trim() !== '')
      quoted.set(example, [...(quoted.get(example) ?? []), line]);
  }
  return quoted;
}

const commands: Record<string, readonly string[]> = {
  schedule: ['schedule', '-f', 'examples/schedule', '--catalog', 'kwok'],
  disrupt: ['disrupt', '-f', 'examples/disrupt', '--catalog', 'kwok', '--now', '2024-06-03T14:00:00Z'],
};

describe('docs/troubleshooting.md', () => {
  const quoted = quotedOutputs(readFileSync(join(root, 'docs', 'troubleshooting.md'), 'utf8'));

  it('quotes output of the schedule and disrupt examples', () => {
    expect([...quoted.keys()].sort()).toEqual(['disrupt', 'schedule']);
  });

  it.each([...quoted.entries()])('quotes lines examples/%s really prints', (example, lines) => {
    const args = commands[example];
    if (args === undefined) throw new Error(`no command known for examples/${example}`);
    const printed = output(args).split('\n');
    for (const line of lines) expect(printed).toContain(line);
  });
});
