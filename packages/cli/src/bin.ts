#!/usr/bin/env node
import { nodeVersionProblem } from './node-version.js';

// Checked before the CLI is imported: on an older Node its imports fail at link time with a
// SyntaxError stack that says nothing about the fix.
const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import('./entry.js');
