import { int32, int64, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

export const VolumeTypes = ['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3'] as const;
export const MaxBlockDeviceMappings = 50;

/** EBS volume sizes EC2 accepts: up to 59000Gi, 64000G, 58Ti or 64T, at least 1. */
const VolumeSizePattern =
  /^(([1-9][0-9]{0,3}|[1-4][0-9]{4}|5[0-8][0-9]{3}|59000)Gi|([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-3][0-9]{3}|64000)G|([1-9]|[1-4][0-9]|5[0-8])Ti|([1-9]|[1-5][0-9]|6[0-4])T)$/;

/** An EBS volume created at launch. */
export const blockDeviceSchema = withRules(
  z
    .strictObject({
      deleteOnTermination: z.boolean().describe('Delete the volume when the instance terminates.').optional(),
      encrypted: z.boolean().describe('Encrypt the volume.').optional(),
      iops: int64().describe('Provisioned IOPS (io1, io2, gp3).').optional(),
      kmsKeyID: z.string().describe('The KMS key that encrypts the volume.').optional(),
      snapshotID: z.string().describe('The snapshot the volume is created from.').optional(),
      throughput: int64().describe('Provisioned throughput in MiB/s (gp3).').optional(),
      volumeInitializationRate: int32()
        .min(100, 'must be at least 100')
        .max(300, 'must be at most 300')
        .describe('MiB/s at which the snapshot is downloaded to the volume; needs snapshotID.')
        .optional(),
      volumeSize: z
        .string({ error: 'must be a size such as 100Gi (as a string)' })
        .regex(VolumeSizePattern, 'must be a size such as 20Gi, 100G, 1Ti or 2T, within EBS limits')
        .describe('The volume size, in Gi, G, Ti or T.')
        .optional(),
      volumeType: z
        .enum(VolumeTypes, { error: `must be one of ${VolumeTypes.join(', ')}` })
        .describe('The EBS volume type.')
        .optional(),
    })
    .describe('An EBS volume.'),
  [
    {
      cel: {
        rule: 'has(self.snapshotID) || has(self.volumeSize)',
        message: 'snapshotID or volumeSize must be set',
      },
      check: (ebs) => ebs.snapshotID === undefined && ebs.volumeSize === undefined && {},
    },
    {
      cel: {
        rule: "!has(self.volumeInitializationRate) || (has(self.snapshotID) && self.snapshotID != '')",
        message: 'volumeInitializationRate needs snapshotID',
        fieldPath: '.volumeInitializationRate',
      },
      check: (ebs) =>
        ebs.volumeInitializationRate !== undefined &&
        !ebs.snapshotID && { path: ['volumeInitializationRate'] },
    },
  ],
);

/** A block device attached at launch. */
export const blockDeviceMappingSchema = z
  .strictObject({
    deviceName: z.string().describe('The device name, e.g. /dev/xvda.').optional(),
    ebs: blockDeviceSchema.optional(),
    rootVolume: z
      .boolean()
      .describe("Mount this device as the kubelet's root directory (at most one).")
      .optional(),
  })
  .describe('A block device mapping.');

/** At most 50 block devices, at most one of them the root volume. */
export const blockDeviceMappingsSchema = withRules(
  z
    .array(blockDeviceMappingSchema)
    .max(MaxBlockDeviceMappings, `must have at most ${MaxBlockDeviceMappings} block device mappings`),
  [
    {
      cel: {
        rule: 'self.filter(x, has(x.rootVolume) && x.rootVolume).size() <= 1',
        message: 'at most one block device mapping may be the root volume',
      },
      check: (mappings) =>
        mappings
          .map((m, i) => (m.rootVolume ? i : -1))
          .filter((i) => i >= 0)
          .slice(1)
          .map((i) => ({ path: [i, 'rootVolume'] })),
    },
  ],
).describe('Block devices for the nodes.');
export type BlockDeviceMapping = z.output<typeof blockDeviceMappingSchema>;
