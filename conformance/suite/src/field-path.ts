import { parseFieldPath, type SchemaNode } from '@nodewright/core/apis';

/**
 * A field path spelled one way, so paths written by nodewright and by the API server compare
 * equal when they name the same field: map keys become `.key` whatever their spelling
 * (`["a.b/c"]`, `[a.b/c]`, or the server's dotted `.a.b/c` for map entries), list indices
 * stay `[n]`, and a leading dot (the server's scale-subresource errors) is dropped.
 */
export function canonicalFieldPath(path: string): string {
  return path
    .replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_, quoted: string) => `.${JSON.parse(`"${quoted}"`) as string}`)
    .replace(/\[([^\]"]*[^\]"0-9][^\]"]*)\]/g, '.$1')
    .replace(/^\./, '');
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
