import { celList, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

export const MaxImageSelectorTerms = 30;

/** Image families nodewright knows how to bootstrap, and the alias prefix of each. */
export const ImageFamilies = ['ContainerOptimizedOS', 'Ubuntu', 'Custom'] as const;
export type ImageFamily = (typeof ImageFamilies)[number];
export const AliasFamilies: Readonly<Record<string, ImageFamily>> = {
  cos: 'ContainerOptimizedOS',
  ubuntu: 'Ubuntu',
};

/** The image family an alias names (`cos@latest` -> ContainerOptimizedOS). */
export function imageFamilyOfAlias(alias: string): ImageFamily | undefined {
  return AliasFamilies[alias.split('@')[0] ?? ''];
}

const AliasPattern = new RegExp(`^(${Object.keys(AliasFamilies).join('|')})@(latest|v[0-9]+)$`);

const count = (term: Record<string, unknown>, ...fields: string[]) =>
  fields.filter((f) => term[f] !== undefined).length;

/** One way to pick images: an alias, an image id or name, or an image family in a project. */
export const imageSelectorTermSchema = withRules(
  z
    .strictObject({
      alias: z
        .string()
        .max(64, 'must be at most 64 characters long')
        .regex(AliasPattern, 'must be an alias such as cos@latest or ubuntu@v20261101')
        .describe('A nodewright-known image: family@latest or family@version.')
        .optional(),
      id: z
        .string()
        .min(1, 'must not be empty')
        .max(128, 'must be at most 128 characters long')
        .describe('An image name or numeric id.')
        .optional(),
      family: z
        .string()
        .max(63, 'must be at most 63 characters long')
        .regex(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a GCE image family name')
        .describe('The newest non-deprecated image of this family.')
        .optional(),
      project: z
        .string()
        .max(30, 'must be at most 30 characters long')
        .regex(/^[a-z][-a-z0-9]{4,28}[a-z0-9]$/, 'must be a project id')
        .describe('The project that owns the image; the NodeClass project when unset.')
        .optional(),
    })
    .describe('Selects images; set exactly one of alias, id and family.'),
  [
    {
      cel: {
        rule: '[has(self.alias), has(self.id), has(self.family)].filter(x, x).size() == 1',
        message: 'set exactly one of alias, id and family in an image selector term',
      },
      check: (t) => count(t, 'alias', 'id', 'family') !== 1 && {},
    },
    {
      cel: {
        rule: '!has(self.project) || !has(self.alias)',
        message: 'project cannot be combined with alias',
        fieldPath: '.project',
      },
      check: (t) => t.project !== undefined && t.alias !== undefined && { path: ['project'] },
    },
  ],
);
export type ImageSelectorTerm = z.output<typeof imageSelectorTermSchema>;

/** Image selector terms: 1 to 30, ORed; an alias term stands alone. */
export const imageSelectorTermsSchema = withRules(
  z
    .array(imageSelectorTermSchema)
    .min(1, 'must have at least one term')
    .max(MaxImageSelectorTerms, `must have at most ${MaxImageSelectorTerms} terms`),
  [
    {
      cel: {
        rule: '!self.exists(x, has(x.alias)) || self.size() == 1',
        message: 'an alias term must be the only image selector term',
      },
      check: (terms) => terms.length > 1 && terms.some((t) => t.alias !== undefined) && {},
    },
  ],
).describe('How to find the images; terms are ORed.');

/** The CEL list of alias prefixes, for rules relating an alias to imageFamily. */
export const AliasFamilyCel = celList(Object.keys(AliasFamilies));
