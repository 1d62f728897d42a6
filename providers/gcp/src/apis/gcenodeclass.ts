import { conditionsSchema, objectMetaSchema, type PairedRule, withRules } from '@nodewright/core/apis';
import { z } from 'zod';
import { disksSchema } from './disks.js';
import {
  AliasFamilyCel,
  ImageFamilies,
  type ImageFamily,
  imageFamilyOfAlias,
  imageSelectorTermsSchema,
} from './images.js';
import { kubeletConfigurationSchema } from './kubelet.js';
import { gceLabelsSchema, gceMetadataSchema } from './labels.js';
import { networkConfigSchema, shieldedInstanceConfigSchema } from './network.js';

export const GCENodeClassGroup = 'karpenter.k8s.gcp';
export const GCENodeClassApiVersion = `${GCENodeClassGroup}/v1alpha1`;
export const GCENodeClassKind = 'GCENodeClass';

interface SpecForRules {
  imageFamily?: ImageFamily | undefined;
  imageSelectorTerms: { alias?: string | undefined }[];
}

const aliasOf = (spec: SpecForRules) => spec.imageSelectorTerms.find((t) => t.alias !== undefined)?.alias;

const SpecRules: readonly PairedRule<SpecForRules>[] = [
  {
    cel: {
      rule: 'self.imageSelectorTerms.exists(x, has(x.alias)) || has(self.imageFamily)',
      message: 'imageFamily is required unless imageSelectorTerms uses an alias',
      fieldPath: '.imageFamily',
    },
    check: (spec) =>
      aliasOf(spec) === undefined && spec.imageFamily === undefined && { path: ['imageFamily'] },
  },
  {
    cel: {
      rule: `!has(self.imageFamily) || self.imageFamily == 'Custom' || !self.imageSelectorTerms.exists(x, has(x.alias) && x.alias.split('@')[0] in ${AliasFamilyCel} && ((x.alias.split('@')[0] == 'cos') != (self.imageFamily == 'ContainerOptimizedOS')))`,
      message: "imageFamily must match the alias's family, or be Custom",
      fieldPath: '.imageFamily',
    },
    check: (spec) => {
      const alias = aliasOf(spec);
      const family = alias === undefined ? undefined : imageFamilyOfAlias(alias);
      return (
        spec.imageFamily !== undefined &&
        spec.imageFamily !== 'Custom' &&
        family !== undefined &&
        family !== spec.imageFamily && { path: ['imageFamily'] }
      );
    },
  },
];

/** `spec` of a GCENodeClass: how nodes are launched on Compute Engine. */
export const gceNodeClassSpecSchema = withRules(
  z
    .strictObject({
      serviceAccount: z
        .string()
        .regex(
          /^[a-z0-9-]+@[a-z0-9-.]+\.iam\.gserviceaccount\.com$|^default$/,
          'must be a service account email or default',
        )
        .describe("The nodes' service account email; the project's default compute account when unset.")
        .optional(),
      imageSelectorTerms: imageSelectorTermsSchema,
      imageFamily: z
        .enum(ImageFamilies, { error: `must be one of ${ImageFamilies.join(', ')}` })
        .describe('How the image is bootstrapped; inferred from an alias if unset.')
        .optional(),
      disks: disksSchema.optional(),
      networkConfig: networkConfigSchema.optional(),
      labels: gceLabelsSchema.optional(),
      metadata: gceMetadataSchema.optional(),
      kubeletConfiguration: kubeletConfigurationSchema.optional(),
      shieldedInstanceConfig: shieldedInstanceConfigSchema.optional(),
    })
    .describe('How nodes are launched on Compute Engine.'),
  SpecRules,
);
export type GCENodeClassSpec = z.output<typeof gceNodeClassSpecSchema>;

const requirementSchema = z.object({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
});

/** `status` of a GCENodeClass: what its selectors resolved to, written by the controller. */
export const gceNodeClassStatusSchema = z
  .object({
    images: z
      .array(z.object({ sourceImage: z.string(), requirements: z.array(requirementSchema) }))
      .describe('The images the selectors found, with the instance requirements each suits.')
      .optional(),
    conditions: conditionsSchema().describe('Ready = ImagesReady and ValidationSucceeded.').optional(),
  })
  .describe('What the GCENodeClass resolved to.');
export type GCENodeClassStatus = z.output<typeof gceNodeClassStatusSchema>;

/** A `karpenter.k8s.gcp/v1alpha1` GCENodeClass, with the API server's defaults and rules. */
export const gceNodeClassSchema = z
  .strictObject({
    apiVersion: z.literal(GCENodeClassApiVersion),
    kind: z.literal(GCENodeClassKind),
    metadata: objectMetaSchema,
    spec: gceNodeClassSpecSchema,
    status: gceNodeClassStatusSchema.optional(),
  })
  .describe('A GCENodeClass: the Compute Engine configuration of nodes.');
export type GCENodeClass = z.output<typeof gceNodeClassSchema>;
export type GCENodeClassInput = z.input<typeof gceNodeClassSchema>;

/** The image family in effect: `imageFamily`, else the alias's family. */
export function resolvedImageFamily(spec: GCENodeClassSpec): ImageFamily | undefined {
  if (spec.imageFamily !== undefined) return spec.imageFamily;
  const alias = spec.imageSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  return alias === undefined ? undefined : imageFamilyOfAlias(alias);
}
