import type { Filter } from '@aws-sdk/client-ec2';

/**
 * EC2 filters for a term's tags, ANDed: `tag:<key>` = value, or `tag-key` = key when the value
 * is `*` (the key exists with any value).
 */
export function tagFilters(tags: Readonly<Record<string, string>> | undefined): Filter[] {
  return Object.entries(tags ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) =>
      value === '*' ? { Name: 'tag-key', Values: [key] } : { Name: `tag:${key}`, Values: [value] },
    );
}

/** One Describe* call a selector list needs, and the term(s) it stands for in messages. */
export interface SelectorQuery {
  readonly filters: Filter[];
  /** `id subnet-1, subnet-2` or `tags {"a":"b"}`: what matched nothing, for condition messages. */
  readonly describes: string;
}

/** Readable form of a term's tags for messages. */
export function describeTags(tags: Readonly<Record<string, string>>): string {
  return `tags ${JSON.stringify(tags)}`;
}

/**
 * The DescribeSubnets queries for subnetSelectorTerms: one for all `id` terms (EC2 ORs values of
 * one filter), and one per tags term (its tags ANDed). The answers are unioned.
 */
export function subnetQueries(
  terms: readonly { id?: string | undefined; tags?: Record<string, string> | undefined }[],
): SelectorQuery[] {
  const ids = terms.flatMap((t) => (t.id === undefined ? [] : [t.id]));
  const queries: SelectorQuery[] = terms.flatMap((t) =>
    t.id === undefined && t.tags !== undefined
      ? [{ filters: tagFilters(t.tags), describes: describeTags(t.tags) }]
      : [],
  );
  if (ids.length > 0)
    queries.unshift({ filters: [{ Name: 'subnet-id', Values: ids }], describes: `id ${ids.join(', ')}` });
  return queries;
}

/**
 * The DescribeSecurityGroups queries for securityGroupSelectorTerms: one for all `id` terms, one
 * per `name` term (`group-name`, the group's name, not its Name tag), one per tags term.
 */
export function securityGroupQueries(
  terms: readonly {
    id?: string | undefined;
    name?: string | undefined;
    tags?: Record<string, string> | undefined;
  }[],
): SelectorQuery[] {
  const ids = terms.flatMap((t) => (t.id === undefined ? [] : [t.id]));
  const queries: SelectorQuery[] = terms.flatMap((t): SelectorQuery[] => {
    if (t.id !== undefined) return [];
    const filters = [
      ...(t.name !== undefined ? [{ Name: 'group-name', Values: [t.name] }] : []),
      ...tagFilters(t.tags),
    ];
    const describes = [
      t.name !== undefined ? `name ${t.name}` : '',
      t.tags !== undefined ? describeTags(t.tags) : '',
    ]
      .filter((d) => d !== '')
      .join(' and ');
    return filters.length === 0 ? [] : [{ filters, describes }];
  });
  if (ids.length > 0)
    queries.unshift({ filters: [{ Name: 'group-id', Values: ids }], describes: `id ${ids.join(', ')}` });
  return queries;
}
