import { type QueryNode, str, strs, structs } from '../query/form.js';
import { Ec2Error } from './errors.js';

/** One `Filter.N`: a name and the values any of which may match. */
export interface Ec2Filter {
  readonly name: string;
  readonly values: readonly string[];
}

/** A resource's tags, as EC2 keeps them. */
export type Tags = ReadonlyMap<string, string>;

/**
 * The values a resource has for a filter name, or undefined when the resource kind has no such
 * filter (EC2 then rejects the request). `tag:Key` and `tag-key` come from the tags.
 */
export type FilterFields<T> = (resource: T, name: string) => readonly string[] | undefined;

/** Reads `Filter.N.Name` / `Filter.N.Value.M` from a request. */
export function readFilters(request: QueryNode): Ec2Filter[] {
  return structs(request, 'Filter').map((f, i) => {
    const name = str(f, 'Name');
    if (name === undefined) throw new Ec2Error('InvalidParameterValue', `Filter.${i + 1}.Name is required`);
    return { name, values: strs(f, 'Value') };
  });
}

/** EC2 filter values are globs: `*` any run, `?` one character; everything else literal. */
export function globMatches(pattern: string, value: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(value);
}

/** The values of tag filters, shared by every taggable resource. */
export function tagFieldValues(tags: Tags, name: string): readonly string[] | undefined {
  if (name.startsWith('tag:')) {
    const v = tags.get(name.slice(4));
    return v === undefined ? [] : [v];
  }
  if (name === 'tag-key') return [...tags.keys()];
  if (name === 'tag-value') return [...tags.values()];
  return undefined;
}

/**
 * Whether `resource` passes every filter (filters AND, values OR). Throws EC2's
 * InvalidParameterValue for a filter name the resource kind does not know.
 */
export function matchesFilters<T>(
  resource: T,
  filters: readonly Ec2Filter[],
  fields: FilterFields<T>,
): boolean {
  for (const filter of filters) {
    const have = fields(resource, filter.name);
    if (have === undefined)
      throw new Ec2Error('InvalidParameterValue', `The filter '${filter.name}' is invalid`);
    if (!filter.values.some((pattern) => have.some((v) => globMatches(pattern, v)))) return false;
  }
  return true;
}

/** Tags as EC2's `tagSet` items. */
export function tagSet(tags: Tags): { key: string; value: string }[] {
  return [...tags].map(([key, value]) => ({ key, value }));
}

/** Reads `Tag.N.Key` / `Tag.N.Value` items from a node. */
export function readTags(node: QueryNode | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of structs(node, 'Tag')) {
    const key = str(t, 'Key');
    if (key !== undefined) out.set(key, str(t, 'Value') ?? '');
  }
  return out;
}

/** The tags a `TagSpecification.N` list asks for on one resource type. */
export function tagsFor(specs: readonly QueryNode[], resourceType: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const spec of specs) {
    if (str(spec, 'ResourceType') !== resourceType) continue;
    for (const [k, v] of readTags(spec)) out.set(k, v);
  }
  return out;
}
