import { parseFieldPath, type SchemaNode } from '@nodewright/core/apis';

/**
 * A field path spelled one way, so paths written by nodewright and by the API server compare
 * equal when they name the same field. Keys become `.key` whatever their spelling
 * (`["a.b/c"]`, `[a.b/c]` or a dotted `.a.b/c`, which the server uses for map entries) and
 * list indices stay `[n]`. A leading dot (the server's scale-subresource errors) is ignored.
 */
export function canonicalFieldPath(path: string): string {
  let out = '';
  for (const segment of parseFieldPath(path.replace(/^\./, ''))) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += `${out === '' ? '' : '.'}${String(segment)}`;
  }
  return out;
}

/**
 * The node of a structural schema that validates the field at `path` (nodewright's
 * unambiguous spelling, e.g. `spec.tags["kubernetes.io/cluster/x"]`): properties by name,
 * then `additionalProperties` for map entries, `items` for list indices. Undefined when the
 * schema has no such field.
 */
export function schemaAt(root: SchemaNode, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const segment of parseFieldPath(path)) {
    if (node === undefined) return undefined;
    if (typeof segment === 'number') {
      node = child(node.items);
      continue;
    }
    const properties = child(node.properties);
    node = child(properties?.[String(segment)]) ?? child(node.additionalProperties);
  }
  return node;
}

function child(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as SchemaNode)
    : undefined;
}
