import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);

/**
 * The yaml library, loaded on first use rather than with the module that uses it: JSON input
 * (most of a large `schedule`'s) never needs it, and loading it costs a short command a sixth
 * of its start. Synchronous, because decoding is; the package is CommonJS under Node, so this
 * is the same module instance an `import` would give.
 */
export function yamlLibrary(): typeof Yaml {
  return require('yaml') as typeof Yaml;
}
