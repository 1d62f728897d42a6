import { yamlLibrary } from '../../manifests/yaml-library.js';
import type { KindDefinition } from '../kind.js';
import { generateCrd } from './generate.js';

/**
 * A kind's CRD as a YAML document, ready for `kubectl apply --server-side`. Deterministic: the
 * same schema always renders the same bytes, so committed CRDs can be checked for staleness.
 */
export function renderCrdYaml(def: KindDefinition): string {
  // The yaml library loads here, not with the apis: only the `crds` command renders.
  const body = yamlLibrary().stringify(generateCrd(def), {
    lineWidth: 0,
    minContentWidth: 0,
    aliasDuplicateObjects: false,
  });
  return `# Generated from the zod schema by nodewright; do not edit.\n---\n${body}`;
}
