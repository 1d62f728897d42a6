#!/usr/bin/env node
/**
 * `kubectl-nodewright`: the kubectl plugin. kubectl runs it for `kubectl nodewright ARGS...`
 * with ARGS as they are, which is exactly the `nodewright` command line.
 */
await import('./bin.js');
