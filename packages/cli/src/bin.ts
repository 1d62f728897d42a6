#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCacheDir } from './compile-cache-dir.js';
import { nodeVersionProblem } from './node-version.js';

// Checked before the CLI is imported: on an older Node its imports fail at link time with a
// SyntaxError stack that says nothing about the fix.
const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// V8's code cache on disk: later runs skip compiling the CLI's modules, most of a short
// command's time. Optional-called so an old Node reaches the message above instead; a folder
// that cannot be written (a read-only home) falls back to the temporary folder.
const cacheDir = compileCacheDir(process.env, safeHomedir(), tmpdir());
if (
  cacheDir !== undefined &&
  module.enableCompileCache?.(cacheDir).status === module.constants?.compileCacheStatus?.FAILED
)
  module.enableCompileCache(join(tmpdir(), 'nodewright-compile-cache'));

// The CLI bundled at build time (scripts/bundle.ts): one entry and a few chunks to read instead
// of hundreds of modules. The controller runs the modules as compiled (it is long-running, so
// its start matters little, and its tests run those); so does a build without the bundle step.
const bundle = new URL('./bundle/', import.meta.url);
const bundleEntry = new URL('entry.js', bundle);
if (process.argv[2] !== 'controller' && existsSync(bundleEntry)) {
  const { bundleHooks } = await import('./bundling/bundle-hooks.js');
  module.registerHooks(bundleHooks(bundle, import.meta.resolve('@nodewright/core')));
  await import(bundleEntry.href);
} else {
  await import('./entry.js');
}

/** The user's home folder, or undefined where there is none (os.homedir throws then). */
function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}
