#!/usr/bin/env node
import module from 'node:module';
import { nodeVersionProblem } from './node-version.js';

// Checked before the CLI is imported: on an older Node its imports fail at link time with a
// SyntaxError stack that says nothing about the fix.
const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// V8's code cache on disk (node's compile cache, in the OS temporary directory unless
// NODE_COMPILE_CACHE says otherwise): later runs skip compiling the CLI's modules, most of a
// short command's time. Optional-called so an old Node reaches the message above instead.
module.enableCompileCache?.();
await import('./entry.js');
