import { stringify } from 'yaml';
import type { KindDefinition } from '../kind.js';
import { generateCrd } from './generate.js';

/**
 * A kind's CRD as a YAML document, ready for `kubectl apply --server-side`. Deterministic: the
 * same schema always renders the same bytes, so committed CRDs can be checked for staleness.
 */
export function renderCrdYaml(def: KindDefinition): string {
  const body = stringify(generateCrd(def), {
    lineWidth: 0,
    minContentWidth: 0,
    aliasDuplicateObjects: false,
  });
  return `# Generated from the zod schema by nodewright; do not edit.\n---\n${body}`;
}
