import { int32, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

/** Persistent disk, Hyperdisk and local SSD categories a node's disks may use. */
export const DiskCategories = [
  'pd-standard',
  'pd-balanced',
  'pd-ssd',
  'pd-extreme',
  'hyperdisk-balanced',
  'hyperdisk-throughput',
  'hyperdisk-extreme',
  'local-ssd',
] as const;
export type DiskCategory = (typeof DiskCategories)[number];

/** GCE's smallest persistent boot disk for the node images, and its fixed local SSD size. */
export const MinDiskSizeGiB = 10;
export const LocalSsdSizeGiB = 375;
export const MaxDisks = 24;

/** One disk attached at launch. */
export const diskSchema = withRules(
  z
    .strictObject({
      category: z
        .enum(DiskCategories, { error: `must be one of ${DiskCategories.join(', ')}` })
        .describe('The disk type.'),
      sizeGiB: int32()
        .min(MinDiskSizeGiB, `must be at least ${MinDiskSizeGiB}`)
        .max(65536, 'must be at most 65536')
        .describe('The disk size in GiB (local SSDs are always 375).'),
      boot: z.boolean().describe('This is the boot disk (exactly one disk is).').optional(),
    })
    .describe('A disk.'),
  [
    {
      cel: {
        rule: "self.category != 'local-ssd' || !has(self.boot) || !self.boot",
        message: 'a local SSD cannot be the boot disk',
        fieldPath: '.boot',
      },
      check: (d) => d.category === 'local-ssd' && d.boot === true && { path: ['boot'] },
    },
    {
      cel: {
        rule: `self.category != 'local-ssd' || self.sizeGiB == ${LocalSsdSizeGiB}`,
        message: `a local SSD is ${LocalSsdSizeGiB} GiB`,
        fieldPath: '.sizeGiB',
      },
      check: (d) => d.category === 'local-ssd' && d.sizeGiB !== LocalSsdSizeGiB && { path: ['sizeGiB'] },
    },
  ],
);
export type Disk = z.output<typeof diskSchema>;

/** The node's disks: at most 24, exactly one of them the boot disk. */
export const disksSchema = withRules(
  z.array(diskSchema).max(MaxDisks, `must have at most ${MaxDisks} disks`),
  [
    {
      cel: {
        rule: 'self.filter(x, has(x.boot) && x.boot).size() == 1',
        message: 'exactly one disk must be the boot disk',
      },
      check: (disks) => disks.filter((d) => d.boot === true).length !== 1 && {},
    },
  ],
).describe('Disks for the nodes; a 100 GiB pd-balanced boot disk when unset.');

/** The disks a NodeClass gets when it names none. */
export const DefaultDisks: readonly Disk[] = [{ category: 'pd-balanced', sizeGiB: 100, boot: true }];
