import {
  celList,
  conditionsSchema,
  dateTime,
  int32,
  objectMetaSchema,
  type PairedRule,
  withRules,
} from '@nodewright/core/apis';
import { z } from 'zod';
import { blockDeviceMappingsSchema } from './block-devices.js';
import { kubeletSchema } from './kubelet.js';
import { metadataOptionsSchema } from './metadata-options.js';
import { connectionTrackingSchema, networkInterfacesSchema } from './network.js';
import {
  AliasFamilies,
  amiSelectorTermSchema,
  capacityReservationSelectorTermSchema,
  placementGroupSelectorSchema,
  securityGroupSelectorTermSchema,
  selectorTerms,
  subnetSelectorTermSchema,
} from './selector-terms.js';
import { ec2TagsSchema } from './tags.js';

export const EC2NodeClassGroup = 'karpenter.k8s.aws';
export const EC2NodeClassApiVersion = `${EC2NodeClassGroup}/v1`;

export const AMIFamilies = [
  'AL2',
  'AL2023',
  'Bottlerocket',
  'Custom',
  'Windows2019',
  'Windows2022',
  'Windows2025',
] as const;
export type AMIFamily = (typeof AMIFamilies)[number];

/** The AMI family an alias family names (`al2023` -> `AL2023`). */
export function amiFamilyOfAlias(alias: string): AMIFamily | undefined {
  const family = alias.split('@')[0]?.toLowerCase();
  return AMIFamilies.find((f) => f !== 'Custom' && f.toLowerCase() === family);
}

const amiSelectorTermsSchema = withRules(selectorTerms(amiSelectorTermSchema, { required: true }), [
  {
    cel: {
      rule: '!self.exists(x, has(x.alias)) || self.size() == 1',
      message: 'an alias term must be the only AMI selector term',
    },
    check: (terms) => terms.length > 1 && terms.some((t) => t.alias !== undefined) && {},
  },
]).describe('How to find the AMIs; terms are ORed.');

interface SpecForRules {
  role?: string | undefined;
  instanceProfile?: string | undefined;
  amiFamily?: AMIFamily | undefined;
  amiSelectorTerms: { alias?: string | undefined }[];
}

const aliasOf = (spec: SpecForRules) => spec.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;

const SpecRules: readonly PairedRule<SpecForRules>[] = [
  {
    cel: {
      rule: 'has(self.role) != has(self.instanceProfile)',
      message: 'set exactly one of role and instanceProfile',
    },
    check: (spec) => (spec.role === undefined) === (spec.instanceProfile === undefined) && {},
  },
  {
    cel: {
      rule: `!has(self.amiFamily) || self.amiFamily == 'Custom' || !self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.split('@')[0] in ${celList(AliasFamilies)} && x.alias.split('@')[0] != self.amiFamily.lowerAscii())`,
      message: "amiFamily must match the alias's family, or be Custom",
      fieldPath: '.amiFamily',
    },
    check: (spec) => {
      const alias = aliasOf(spec);
      return (
        spec.amiFamily !== undefined &&
        spec.amiFamily !== 'Custom' &&
        alias !== undefined &&
        amiFamilyOfAlias(alias) !== undefined &&
        amiFamilyOfAlias(alias) !== spec.amiFamily && { path: ['amiFamily'] }
      );
    },
  },
  {
    cel: {
      rule: 'self.amiSelectorTerms.exists(x, has(x.alias)) || has(self.amiFamily)',
      message: 'amiFamily is required unless amiSelectorTerms uses an alias',
      fieldPath: '.amiFamily',
    },
    check: (spec) => aliasOf(spec) === undefined && spec.amiFamily === undefined && { path: ['amiFamily'] },
  },
];

/** `spec` of an EC2NodeClass: how nodes are launched on EC2. */
export const ec2NodeClassSpecSchema = withRules(
  z
    .strictObject({
      subnetSelectorTerms: selectorTerms(subnetSelectorTermSchema, { required: true }).describe(
        'How to find the subnets; terms are ORed.',
      ),
      securityGroupSelectorTerms: selectorTerms(securityGroupSelectorTermSchema, { required: true }).describe(
        'How to find the security groups; terms are ORed.',
      ),
      capacityReservationSelectorTerms: selectorTerms(capacityReservationSelectorTermSchema, {
        required: false,
      })
        .describe('How to find capacity reservations to launch into; terms are ORed.')
        .optional(),
      placementGroupSelector: placementGroupSelectorSchema.optional(),
      associatePublicIPAddress: z.boolean().describe('Give instances public IP addresses.').optional(),
      ipPrefixCount: int32()
        .min(0, 'must not be negative')
        .describe('IPv4 prefixes to assign to the primary network interface.')
        .optional(),
      amiSelectorTerms: amiSelectorTermsSchema,
      amiFamily: z
        .enum(AMIFamilies, { error: `must be one of ${AMIFamilies.join(', ')}` })
        .describe(
          'The AMI family: user data format and default block devices. Inferred from an alias if unset.',
        )
        .optional(),
      userData: z
        .string()
        .describe('User data, merged with what nodewright generates for the AMI family.')
        .optional(),
      role: z
        .string()
        .min(1, 'must not be empty')
        .describe('IAM role for the nodes (exclusive with instanceProfile).')
        .optional(),
      instanceProfile: z
        .string()
        .min(1, 'must not be empty')
        .describe('An existing instance profile for the nodes (exclusive with role).')
        .optional(),
      tags: ec2TagsSchema.optional(),
      kubelet: kubeletSchema.optional(),
      blockDeviceMappings: blockDeviceMappingsSchema.optional(),
      instanceStorePolicy: z
        .enum(['RAID0'], { error: 'must be RAID0' })
        .describe('How instance-store disks are used; RAID0 makes them one array for ephemeral storage.')
        .optional(),
      networkInterfaces: networkInterfacesSchema.optional(),
      detailedMonitoring: z.boolean().describe('Enable detailed CloudWatch monitoring.').optional(),
      metadataOptions: metadataOptionsSchema,
      connectionTracking: connectionTrackingSchema.optional(),
      context: z.string().describe('The reserved EC2 Fleet Context field.').optional(),
      cpuOptions: z
        .strictObject({
          nestedVirtualization: z
            .enum(['enabled', 'disabled'], { error: 'must be one of enabled, disabled' })
            .describe('Launch only instance types that support nested virtualization, and enable it.')
            .optional(),
        })
        .describe('CPU options.')
        .optional(),
    })
    .describe('How nodes are launched on EC2.'),
  SpecRules,
);
export type EC2NodeClassSpec = z.output<typeof ec2NodeClassSpecSchema>;

const requirementSchema = z.object({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
});

/** `status` of an EC2NodeClass: what its selectors resolved to, written by the controller. */
export const ec2NodeClassStatusSchema = z
  .object({
    subnets: z
      .array(z.object({ id: z.string(), zone: z.string(), zoneID: z.string().optional() }))
      .describe('The subnets the selectors found.')
      .optional(),
    securityGroups: z
      .array(z.object({ id: z.string(), name: z.string().optional() }))
      .describe('The security groups the selectors found.')
      .optional(),
    amis: z
      .array(
        z.object({
          id: z.string(),
          name: z.string().optional(),
          deprecated: z.boolean().optional(),
          requirements: z.array(requirementSchema),
        }),
      )
      .describe('The AMIs the selectors found, with the instance requirements each suits.')
      .optional(),
    capacityReservations: z
      .array(
        z.object({
          availabilityZone: z.string(),
          endTime: dateTime().optional(),
          id: z.string().regex(/^cr-[0-9a-z]+$/),
          instanceMatchCriteria: z.enum(['open', 'targeted']),
          instanceType: z.string(),
          interruptible: z.boolean().optional(),
          ownerID: z.string().regex(/^[0-9]{12}$/),
          reservationType: z.enum(['default', 'capacity-block']).default('default'),
          state: z.enum(['active', 'expiring']).default('active'),
        }),
      )
      .describe('The capacity reservations the selectors found.')
      .optional(),
    instanceProfile: z.string().describe('The instance profile in use.').optional(),
    conditions: conditionsSchema()
      .describe(
        'Ready = AMIsReady, SubnetsReady, SecurityGroupsReady, InstanceProfileReady and ValidationSucceeded.',
      )
      .optional(),
  })
  .describe('What the EC2NodeClass resolved to.');
export type EC2NodeClassStatus = z.output<typeof ec2NodeClassStatusSchema>;

/** A `karpenter.k8s.aws/v1` EC2NodeClass, with the API server's defaults and rules. */
export const ec2NodeClassSchema = z
  .strictObject({
    apiVersion: z.literal(EC2NodeClassApiVersion),
    kind: z.literal('EC2NodeClass'),
    metadata: objectMetaSchema,
    spec: ec2NodeClassSpecSchema,
    status: ec2NodeClassStatusSchema.optional(),
  })
  .describe('An EC2NodeClass: the AWS-specific configuration of nodes.');
export type EC2NodeClass = z.output<typeof ec2NodeClassSchema>;
export type EC2NodeClassInput = z.input<typeof ec2NodeClassSchema>;
