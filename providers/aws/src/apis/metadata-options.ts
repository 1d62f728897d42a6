import { z } from 'zod';

/** How the instance metadata service is exposed; defaults as upstream (IMDSv2 required, hop limit 1). */
export const MetadataOptionsDefault = {
  httpEndpoint: 'enabled',
  httpProtocolIPv6: 'disabled',
  httpPutResponseHopLimit: 1,
  httpTokens: 'required',
} as const;

export const metadataOptionsSchema = z
  .strictObject({
    httpEndpoint: z
      .enum(['enabled', 'disabled'], { error: 'must be one of enabled, disabled' })
      .default('enabled')
      .describe('Whether the metadata endpoint is reachable.'),
    httpProtocolIPv6: z
      .enum(['enabled', 'disabled'], { error: 'must be one of enabled, disabled' })
      .default('disabled')
      .describe('Whether the metadata endpoint is reachable over IPv6.'),
    httpPutResponseHopLimit: z
      .int()
      .min(1, 'must be at least 1')
      .max(64, 'must be at most 64')
      .meta({ format: 'int64' })
      .default(1)
      .describe('How many network hops a metadata PUT response may travel (1 keeps it off pods).'),
    httpTokens: z
      .enum(['required', 'optional'], { error: 'must be one of required, optional' })
      .default('required')
      .describe('required enforces IMDSv2 session tokens.'),
  })
  .describe('Instance metadata service options.')
  .prefault({})
  .meta({ default: MetadataOptionsDefault });
