import { celList, celString, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

/** Most terms in one selector list. */
export const MaxSelectorTerms = 30;
export const MaxSelectorTags = 20;

/**
 * Tags a resource must carry to be selected; `*` as a value matches any value of the key.
 * Keys and values must not be empty.
 */
export const selectorTagsSchema = withRules(
  z
    .record(z.string(), z.string())
    .refine(
      (tags) => Object.keys(tags).length <= MaxSelectorTags,
      `must have at most ${MaxSelectorTags} tags`,
    )
    .meta({ maxProperties: MaxSelectorTags }),
  [
    {
      cel: {
        rule: "self.all(k, k != '' && self[k] != '')",
        message: 'tag keys and values must not be empty',
      },
      check: (tags) =>
        Object.entries(tags).flatMap(([k, v]) => (k === '' || v === '' ? [{ path: [k] }] : [])),
    },
  ],
).describe("Tags the resource must have; the value '*' matches any value.");

const has = (term: object, ...fields: string[]) =>
  fields.some((f) => (term as Record<string, unknown>)[f] !== undefined);

/** One way to pick subnets: by id, or by tags. */
export const subnetSelectorTermSchema = withRules(
  z
    .strictObject({
      tags: selectorTagsSchema.optional(),
      id: z
        .string()
        .regex(/^subnet-[0-9a-z]+$/, 'must be a subnet id such as subnet-0123456789abcdef0')
        .describe('The subnet id.')
        .optional(),
    })
    .describe('Selects subnets; the fields of a term are ANDed.'),
  [
    {
      cel: { rule: 'has(self.tags) || has(self.id)', message: 'a subnet selector term needs tags or id' },
      check: (t) => !has(t, 'tags', 'id') && {},
    },
    {
      cel: {
        rule: '!(has(self.id) && has(self.tags))',
        message: 'id cannot be combined with tags in a subnet selector term',
      },
      check: (t) => has(t, 'id') && has(t, 'tags') && {},
    },
  ],
);

/** One way to pick security groups: by id, by name, or by tags. */
export const securityGroupSelectorTermSchema = withRules(
  z
    .strictObject({
      tags: selectorTagsSchema.optional(),
      id: z
        .string()
        .regex(/^sg-[0-9a-z]+$/, 'must be a security group id such as sg-0123456789abcdef0')
        .describe('The security group id.')
        .optional(),
      name: z.string().describe('The security group name (not its Name tag).').optional(),
    })
    .describe('Selects security groups; the fields of a term are ANDed.'),
  [
    {
      cel: {
        rule: 'has(self.tags) || has(self.id) || has(self.name)',
        message: 'a security group selector term needs tags, id or name',
      },
      check: (t) => !has(t, 'tags', 'id', 'name') && {},
    },
    {
      cel: {
        rule: '!(has(self.id) && (has(self.tags) || has(self.name)))',
        message: 'id cannot be combined with tags or name in a security group selector term',
      },
      check: (t) => has(t, 'id') && has(t, 'tags', 'name') && {},
    },
    {
      cel: {
        rule: '!(has(self.name) && has(self.tags))',
        message: 'name cannot be combined with tags in a security group selector term',
      },
      check: (t) => has(t, 'name') && has(t, 'tags') && {},
    },
  ],
);

/** AMI families an alias can name, and whether they may pin a version. */
export const AliasFamilies = [
  'al2',
  'al2023',
  'bottlerocket',
  'windows2019',
  'windows2022',
  'windows2025',
] as const;
const WindowsFamilies: readonly string[] = ['windows2019', 'windows2022', 'windows2025'];
const AliasFormat = /^[a-zA-Z0-9]+@.+$/;

const aliasSchema = withRules(
  z
    .string()
    .max(30, 'must be at most 30 characters long')
    .describe('An EKS-optimized AMI as family@version, e.g. al2023@latest or bottlerocket@v1.20.0.'),
  [
    {
      cel: {
        rule: `self.matches(${celString(AliasFormat.source)})`,
        message: 'must be family@version, e.g. al2023@latest',
      },
      check: (alias) => !AliasFormat.test(alias) && {},
    },
    {
      cel: {
        rule: `self.split('@')[0] in ${celList(AliasFamilies)}`,
        message: `the alias family must be one of ${AliasFamilies.join(', ')}`,
      },
      check: (alias) =>
        AliasFormat.test(alias) && !(AliasFamilies as readonly string[]).includes(alias.split('@')[0]!) && {},
    },
    {
      cel: {
        rule: `!(self.split('@')[0] in ${celList(WindowsFamilies)}) || self.split('@')[1] == 'latest'`,
        message: 'Windows aliases only support the version latest',
      },
      check: (alias) => {
        const [family, version] = alias.split('@');
        return WindowsFamilies.includes(family!) && version !== 'latest' && {};
      },
    },
  ],
);

/** One way to pick AMIs: an alias, an id, an SSM parameter, or name/owner/tags. */
export const amiSelectorTermSchema = withRules(
  z
    .strictObject({
      alias: aliasSchema.optional(),
      id: z
        .string()
        .regex(/^ami-[0-9a-z]+$/, 'must be an AMI id such as ami-0123456789abcdef0')
        .describe('The AMI id.')
        .optional(),
      name: z.string().describe('The AMI name (not its Name tag); may contain wildcards.').optional(),
      owner: z.string().describe('The AMI owner: an account id, self, amazon or aws-marketplace.').optional(),
      ssmParameter: z.string().describe('Name or ARN of an SSM parameter holding the AMI id.').optional(),
      tags: selectorTagsSchema.optional(),
    })
    .describe('Selects AMIs; the fields of a term are ANDed.'),
  [
    {
      cel: {
        rule: 'has(self.tags) || has(self.id) || has(self.name) || has(self.alias) || has(self.ssmParameter)',
        message: 'an AMI selector term needs alias, id, name, ssmParameter or tags',
      },
      check: (t) => !has(t, 'tags', 'id', 'name', 'alias', 'ssmParameter') && {},
    },
    {
      cel: {
        rule: '!(has(self.id) && (has(self.alias) || has(self.tags) || has(self.name) || has(self.owner)))',
        message: 'id cannot be combined with alias, tags, name or owner in an AMI selector term',
      },
      check: (t) => has(t, 'id') && has(t, 'alias', 'tags', 'name', 'owner') && {},
    },
    {
      cel: {
        rule: '!(has(self.alias) && (has(self.tags) || has(self.name) || has(self.owner)))',
        message: 'alias cannot be combined with tags, name or owner in an AMI selector term',
      },
      check: (t) => has(t, 'alias') && has(t, 'tags', 'name', 'owner') && {},
    },
  ],
);
export type AMISelectorTerm = z.output<typeof amiSelectorTermSchema>;

/** One way to pick capacity reservations: by id, or by owner/tags/match criteria. */
export const capacityReservationSelectorTermSchema = withRules(
  z
    .strictObject({
      tags: selectorTagsSchema.optional(),
      id: z
        .string()
        .regex(/^cr-[0-9a-z]+$/, 'must be a capacity reservation id such as cr-0123456789abcdef0')
        .describe('The capacity reservation id.')
        .optional(),
      ownerID: z
        .string()
        .regex(/^[0-9]{12}$/, 'must be a 12-digit AWS account id')
        .describe('The account that owns the reservation.')
        .optional(),
      instanceMatchCriteria: z
        .enum(['open', 'targeted'], { error: 'must be one of open, targeted' })
        .describe('Which launches the reservation accepts: open or targeted.')
        .optional(),
    })
    .describe('Selects capacity reservations; the fields of a term are ANDed.'),
  [
    {
      cel: {
        rule: 'has(self.tags) || has(self.id) || has(self.instanceMatchCriteria)',
        message: 'a capacity reservation selector term needs tags, id or instanceMatchCriteria',
      },
      check: (t) => !has(t, 'tags', 'id', 'instanceMatchCriteria') && {},
    },
    {
      cel: {
        rule: '!(has(self.id) && (has(self.tags) || has(self.ownerID) || has(self.instanceMatchCriteria)))',
        message:
          'id cannot be combined with tags, ownerID or instanceMatchCriteria in a capacity reservation selector term',
      },
      check: (t) => has(t, 'id') && has(t, 'tags', 'ownerID', 'instanceMatchCriteria') && {},
    },
  ],
);

/** The placement group instances launch into, by name or id (exactly one). */
export const placementGroupSelectorSchema = withRules(
  z
    .strictObject({
      name: z.string().min(1, 'must not be empty').describe('The placement group name.').optional(),
      id: z
        .string()
        .regex(/^pg-[0-9a-z]+$/, 'must be a placement group id such as pg-0123456789abcdef0')
        .describe('The placement group id.')
        .optional(),
    })
    .describe('The placement group to launch into.'),
  [
    {
      cel: { rule: 'has(self.name) || has(self.id)', message: 'a placement group selector needs name or id' },
      check: (p) => !has(p, 'name', 'id') && {},
    },
    {
      cel: { rule: '!(has(self.name) && has(self.id))', message: 'name and id cannot both be set' },
      check: (p) => has(p, 'name') && has(p, 'id') && {},
    },
  ],
);

/** Selector lists: 1 to 30 terms (capacity reservations may have none). */
export function selectorTerms<T extends z.ZodType>(term: T, options: { required: boolean }) {
  const list = z.array(term).max(MaxSelectorTerms, `must have at most ${MaxSelectorTerms} terms`);
  return options.required ? list.min(1, 'must have at least one term') : list;
}
