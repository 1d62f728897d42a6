import { withRules } from '@nodewright/core/apis';
import { z } from 'zod';

const ResourceName = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A network or subnetwork: a name, or a partial URL such as `projects/p/regions/r/subnetworks/s`. */
const NetworkRef =
  /^([a-z]([-a-z0-9]{0,61}[a-z0-9])?|(projects\/[^/]+\/)?(global|regions\/[a-z0-9-]+)\/(networks|subnetworks)\/[a-z]([-a-z0-9]{0,61}[a-z0-9])?)$/;

/** Where the nodes' network interface goes, and how it is reached. */
export const networkConfigSchema = withRules(
  z
    .strictObject({
      network: z
        .string()
        .regex(NetworkRef, 'must be a network name or a global/networks/NAME path')
        .describe('The VPC network; `default` when unset.')
        .optional(),
      subnetwork: z
        .string()
        .regex(NetworkRef, 'must be a subnetwork name or a regions/REGION/subnetworks/NAME path')
        .describe("The subnetwork in the cluster's region.")
        .optional(),
      networkTags: z
        .array(
          z
            .string()
            .max(63, 'must be at most 63 characters long')
            .regex(ResourceName, 'must be a network tag: lowercase letters, digits and -'),
        )
        .max(64, 'must have at most 64 network tags')
        .describe('Network tags for firewall rules.')
        .optional(),
      enableExternalIPAccess: z
        .boolean()
        .describe('Give the nodes an ephemeral external IP (false by default).')
        .optional(),
    })
    .describe("The nodes' network interface."),
  [
    {
      cel: {
        rule: '!has(self.networkTags) || self.networkTags.all(t, self.networkTags.filter(u, u == t).size() == 1)',
        message: 'network tags must be unique',
        fieldPath: '.networkTags',
      },
      check: (n) =>
        n.networkTags !== undefined &&
        new Set(n.networkTags).size !== n.networkTags.length && { path: ['networkTags'] },
    },
  ],
);
export type NetworkConfig = z.output<typeof networkConfigSchema>;

/** Shielded VM options; GCE's defaults (vTPM and integrity monitoring on) when unset. */
export const shieldedInstanceConfigSchema = z
  .strictObject({
    enableSecureBoot: z.boolean().describe('Verify the boot chain (off by default).').optional(),
    enableVtpm: z.boolean().describe('A virtual TPM (on by default).').optional(),
    enableIntegrityMonitoring: z
      .boolean()
      .describe('Measured-boot integrity monitoring (on by default).')
      .optional(),
  })
  .describe('Shielded VM options.');
export type ShieldedInstanceConfig = z.output<typeof shieldedInstanceConfigSchema>;
