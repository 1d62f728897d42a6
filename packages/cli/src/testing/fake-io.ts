import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import type { CliIo } from '../io.js';

/** A CliIo whose output is captured as text and whose stdin is the given text. */
export interface FakeIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

export function fakeIo(cwd: string, stdin = ''): FakeIo {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    stdin: Readable.from([stdin]),
    cwd,
    out: () => out,
    err: () => err,
  };
}

/** A fresh temporary directory and a function removing it. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-cli-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temporary directory for each test of the calling file, removed after it; the
 * returned function gives the current test's directory.
 */
export function useTempDir(): () => string {
  let current: { dir: string; remove: () => Promise<void> } | undefined;
  beforeEach(async () => {
    current = await tempDir();
  });
  afterEach(async () => {
    await current?.remove();
  });
  return () => current!.dir;
}
