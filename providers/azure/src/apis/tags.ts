import { withRules } from '@nodewright/core/apis';
import { z } from 'zod';

/** Tag keys nodewright sets on VMs itself (ARM tag keys cannot hold `/`, so `_` stands in). */
export const RestrictedAzureTagKeys = [
  'karpenter.azure.com_cluster',
  'karpenter.sh_nodepool',
  'karpenter.sh_nodeclaim',
  'karpenter.azure.com_aksnodeclass',
] as const;

/** Characters ARM refuses in tag names. */
const ForbiddenKeyCharacters = ['<', '>', '%', '&', '\\', '?', '/'];

/** Tags for the VMs, NICs and disks nodewright creates, within ARM's tag limits. */
export const azureTagsSchema = withRules(z.record(z.string(), z.string()), [
  {
    cel: { rule: 'self.all(k, k.size() <= 512)', message: 'tag keys must be at most 512 characters' },
    check: (tags) => Object.keys(tags).flatMap((k) => (k.length > 512 ? [{ path: [k] }] : [])),
  },
  {
    cel: {
      rule: 'self.all(k, self[k].size() <= 256)',
      message: 'tag values must be at most 256 characters',
    },
    check: (tags) => Object.entries(tags).flatMap(([k, v]) => (v.length > 256 ? [{ path: [k] }] : [])),
  },
  {
    cel: {
      rule: "self.all(k, !k.matches('[<>%&\\\\\\\\?/]'))",
      message: 'tag keys must not contain < > % & \\ ? /',
    },
    check: (tags) =>
      Object.keys(tags).flatMap((k) =>
        ForbiddenKeyCharacters.some((c) => k.includes(c)) ? [{ path: [k] }] : [],
      ),
  },
  {
    cel: {
      rule: `self.all(k, !(k in [${RestrictedAzureTagKeys.map((k) => `'${k}'`).join(', ')}]))`,
      message: `tags ${RestrictedAzureTagKeys.join(', ')} are restricted: nodewright sets them itself`,
    },
    check: (tags) =>
      Object.keys(tags).flatMap((k) =>
        (RestrictedAzureTagKeys as readonly string[]).includes(k) ? [{ path: [k] }] : [],
      ),
  },
]).describe('Tags for the Azure resources nodewright creates (VMs, NICs, disks).');
