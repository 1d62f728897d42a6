import { conditionsSchema, int32, objectMetaSchema, type PairedRule, withRules } from '@nodewright/core/apis';
import { z } from 'zod';
import { aksKubeletSchema } from './kubelet.js';
import { azureTagsSchema } from './tags.js';

export const AKSNodeClassGroup = 'karpenter.azure.com';
export const AKSNodeClassVersion = 'v1beta1';
export const AKSNodeClassApiVersion = `${AKSNodeClassGroup}/${AKSNodeClassVersion}`;
export const AKSNodeClassKind = 'AKSNodeClass';

export const ImageFamilies = ['Ubuntu', 'Ubuntu2204', 'Ubuntu2404', 'AzureLinux'] as const;
export type ImageFamily = (typeof ImageFamilies)[number];

/** `/subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>`. */
export const SubnetIdRegex =
  /^\/subscriptions\/[^/]+\/resourceGroups\/[a-zA-Z0-9_\-().]{0,89}[a-zA-Z0-9_\-()]\/providers\/Microsoft\.Network\/virtualNetworks\/[^/]+\/subnets\/[^/]+$/;

interface SpecForRules {
  imageFamily?: ImageFamily | undefined;
  fipsMode?: 'FIPS' | 'Disabled' | undefined;
}

const SpecRules: readonly PairedRule<SpecForRules>[] = [
  {
    cel: {
      rule: "!has(self.fipsMode) || self.fipsMode != 'FIPS' || (has(self.imageFamily) && self.imageFamily in ['AzureLinux', 'Ubuntu2204'])",
      message: 'fipsMode FIPS needs imageFamily AzureLinux or Ubuntu2204',
      fieldPath: '.fipsMode',
    },
    check: (spec) =>
      spec.fipsMode === 'FIPS' &&
      spec.imageFamily !== 'AzureLinux' &&
      spec.imageFamily !== 'Ubuntu2204' && { path: ['fipsMode'] },
  },
];

/** `spec` of an AKSNodeClass: how nodes are launched as Azure VMs. */
export const aksNodeClassSpecSchema = withRules(
  z
    .strictObject({
      vnetSubnetID: z
        .string()
        .regex(
          SubnetIdRegex,
          'must be a subnet resource ID: /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>',
        )
        .describe("The subnet the nodes' NICs join; the cluster's subnet if unset.")
        .optional(),
      osDiskSizeGB: int32()
        .min(30, 'must be at least 30')
        .max(2048, 'must be at most 2048')
        .default(128)
        .describe('Size of the OS disk in GB.'),
      imageFamily: z
        .enum(ImageFamilies, { error: `must be one of ${ImageFamilies.join(', ')}` })
        .default('Ubuntu')
        .describe('The node image family; Ubuntu is the default Ubuntu release for the Kubernetes version.'),
      imageVersion: z
        .string()
        .regex(/^[0-9]+\.[0-9]+\.[0-9]+$/, 'must be an image version such as 202505.27.0')
        .describe('Pin the node image version; the latest if unset.')
        .optional(),
      fipsMode: z
        .enum(['FIPS', 'Disabled'], { error: 'must be one of FIPS, Disabled' })
        .describe('Use a FIPS-enabled image.')
        .optional(),
      tags: azureTagsSchema.optional(),
      kubelet: aksKubeletSchema.optional(),
      maxPods: int32()
        .min(10, 'must be at least 10')
        .max(250, 'must be at most 250')
        .describe('The most pods a node may run; the network plugin decides if unset.')
        .optional(),
      security: z
        .strictObject({
          encryptionAtHost: z
            .boolean()
            .describe('Encrypt temp disks and caches at the host; needs a size that supports it.')
            .optional(),
        })
        .describe('Security settings.')
        .optional(),
    })
    .describe('How nodes are launched as Azure VMs.'),
  SpecRules,
);
export type AKSNodeClassSpec = z.output<typeof aksNodeClassSpecSchema>;

const requirementSchema = z.object({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
});

/** `status` of an AKSNodeClass, written by its status controller. */
export const aksNodeClassStatusSchema = z
  .object({
    images: z
      .array(z.object({ id: z.string(), requirements: z.array(requirementSchema) }))
      .describe('The node images resolved for the image family, with the VM sizes each suits.')
      .optional(),
    kubernetesVersion: z
      .string()
      .describe("The cluster's Kubernetes version the images were chosen for.")
      .optional(),
    conditions: conditionsSchema()
      .describe('Ready = ImagesReady, KubernetesVersionReady, SubnetsReady and ValidationSucceeded.')
      .optional(),
  })
  .describe('What the AKSNodeClass resolved to.');
export type AKSNodeClassStatus = z.output<typeof aksNodeClassStatusSchema>;

/** A `karpenter.azure.com/v1beta1` AKSNodeClass, with the API server's defaults and rules. */
export const aksNodeClassSchema = z
  .strictObject({
    apiVersion: z.literal(AKSNodeClassApiVersion),
    kind: z.literal(AKSNodeClassKind),
    metadata: objectMetaSchema,
    spec: aksNodeClassSpecSchema,
    status: aksNodeClassStatusSchema.optional(),
  })
  .describe('An AKSNodeClass: the Azure-specific configuration of nodes.');
export type AKSNodeClass = z.output<typeof aksNodeClassSchema>;
export type AKSNodeClassInput = z.input<typeof aksNodeClassSchema>;
