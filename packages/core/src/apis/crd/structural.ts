/**
 * Rewrites the JSON Schema zod emits into a Kubernetes structural schema, the only kind a
 * CustomResourceDefinition accepts: every node has a type, there are no `$ref`s (all
 * inlined), no `additionalProperties` beside `properties`, and int-or-string values are
 * marked with `x-kubernetes-int-or-string`. Anything that cannot be made structural (a union
 * other than int-or-string, an untyped node) is an error naming the path, so a schema change
 * that would produce a CRD the API server refuses fails at build time instead.
 */

/** One node of an OpenAPI v3 schema as the CRD carries it. */
export type SchemaNode = { [key: string]: unknown };

/** Keywords a structural schema node may carry; anything else zod emits is dropped. */
const Allowed = new Set([
  'type',
  'format',
  'description',
  'default',
  'enum',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'nullable',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** zod writes these bounds for every integer; they say nothing a CRD needs. */
const SafeIntegerBounds = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

export class NotStructuralError extends Error {
  constructor(path: string, reason: string) {
    super(`${path || '<root>'}: ${reason}`);
    this.name = 'NotStructuralError';
  }
}

/**
 * The structural form of a zod-generated schema. `definitions` are the `$defs` (or
 * `definitions`) of the document, used to inline references.
 */
export function toStructural(schema: SchemaNode, definitions: Record<string, SchemaNode> = {}): SchemaNode {
  return rewrite(schema, definitions, '', new Set());
}

function rewrite(
  input: SchemaNode,
  defs: Record<string, SchemaNode>,
  path: string,
  refs: Set<string>,
): SchemaNode {
  const node = inline(input, defs, path, refs);
  if (node['x-kubernetes-int-or-string'] === true) return intOrString(node);
  if (
    node.anyOf !== undefined ||
    node.oneOf !== undefined ||
    node.allOf !== undefined ||
    node.not !== undefined
  ) {
    throw new NotStructuralError(path, 'unions are not structural; use a refinement with a CEL rule instead');
  }
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (!Allowed.has(key)) continue;
    // zod bounds every integer to the safe range. int32 fields are bounded tighter by their
    // format; int64 ones keep the bound, so the server refuses what nodewright cannot represent.
    if ((key === 'minimum' || key === 'maximum') && SafeIntegerBounds.has(value as number)) {
      if (node.format !== 'int64') continue;
    }
    out[key] = value;
  }
  if (node['x-nodewright-drop-pattern'] === true) delete out.pattern;
  if (out.type === undefined && node.const !== undefined) {
    out.type = typeof node.const;
    out.enum = [node.const];
  }
  if (out.type === undefined) throw new NotStructuralError(path, 'has no type');

  if (node.properties !== undefined) {
    const properties: Record<string, SchemaNode> = {};
    for (const [name, child] of Object.entries(node.properties as Record<string, SchemaNode>)) {
      properties[name] = rewrite(child, defs, `${path}.${name}`, refs);
    }
    out.properties = properties;
    // Unknown fields are pruned by the API server; `false` (strict objects) is not allowed.
    delete out.additionalProperties;
  } else if (isSchema(node.additionalProperties)) {
    if (Object.keys(node.additionalProperties).length === 0) {
      throw new NotStructuralError(path, 'a map of untyped values is not structural');
    }
    out.additionalProperties = rewrite(node.additionalProperties, defs, `${path}[*]`, refs);
  } else {
    delete out.additionalProperties;
  }
  if (node.items !== undefined) {
    if (!isSchema(node.items)) throw new NotStructuralError(path, 'tuples are not structural');
    out.items = rewrite(node.items, defs, `${path}[]`, refs);
  }
  if (Array.isArray(out.required)) {
    out.required = [...(out.required as string[])].sort();
    if ((out.required as string[]).length === 0) delete out.required;
  }
  return sortKeys(out);
}

/** Replaces a `$ref` by the definition it names, keeping sibling keywords. */
function inline(
  node: SchemaNode,
  defs: Record<string, SchemaNode>,
  path: string,
  refs: Set<string>,
): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const name = ref.replace(/^#\/(\$defs|definitions)\//, '');
  const target = defs[name];
  if (target === undefined) throw new NotStructuralError(path, `unresolved reference ${ref}`);
  if (refs.has(name)) throw new NotStructuralError(path, `recursive reference ${ref} cannot be inlined`);
  const { $ref: _, ...siblings } = node;
  const seen = new Set(refs).add(name);
  return inline({ ...target, ...siblings }, defs, path, seen);
}

/** The int-or-string form Kubernetes expects: `anyOf` integer/string, no type, pattern for the string. */
function intOrString(node: SchemaNode): SchemaNode {
  const out: SchemaNode = {
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  };
  for (const key of ['description', 'pattern', 'default'] as const) {
    if (node[key] !== undefined) out[key] = node[key];
  }
  return sortKeys(out);
}

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortKeys(node: SchemaNode): SchemaNode {
  return Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Problems that would make the API server reject a schema as not structural; empty when it is
 * structural. Checks every node: no `$ref`, a type (or int-or-string, or preserve-unknown),
 * no `additionalProperties` beside `properties`, unions only as value validations.
 */
export function structuralProblems(schema: SchemaNode, path = ''): string[] {
  const problems: string[] = [];
  const at = path || '<root>';
  if ('$ref' in schema) problems.push(`${at}: has a $ref`);
  const typed =
    typeof schema.type === 'string' ||
    schema['x-kubernetes-int-or-string'] === true ||
    schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (!typed) problems.push(`${at}: has no type`);
  if (schema.properties !== undefined && schema.additionalProperties !== undefined) {
    problems.push(`${at}: has additionalProperties beside properties`);
  }
  for (const key of ['oneOf', 'allOf', 'not', '$defs', 'definitions', 'const', 'propertyNames']) {
    if (key in schema) problems.push(`${at}: has ${key}`);
  }
  if (schema.anyOf !== undefined && schema['x-kubernetes-int-or-string'] !== true) {
    problems.push(`${at}: has anyOf outside an int-or-string`);
  }
  if (isSchema(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      problems.push(...structuralProblems(child as SchemaNode, `${path}.${name}`));
    }
  }
  if (isSchema(schema.additionalProperties)) {
    problems.push(...structuralProblems(schema.additionalProperties, `${path}[*]`));
  } else if (schema.additionalProperties !== undefined) {
    problems.push(`${at}: additionalProperties must be a schema`);
  }
  if (isSchema(schema.items)) problems.push(...structuralProblems(schema.items, `${path}[]`));
  return problems;
}
