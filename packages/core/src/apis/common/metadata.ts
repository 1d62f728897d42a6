import { z } from 'zod';
import { DnsSubdomainMaxLength, DnsSubdomainPattern } from './primitives.js';

const dnsSubdomainRe = new RegExp(DnsSubdomainPattern);
const NameMessage =
  'must be a DNS subdomain: at most 253 lower-case letters, digits, "-" and ".", starting and ending with a letter or digit';

/** An object name: a DNS subdomain, as the API server requires for custom resources. */
export function objectName() {
  return z
    .string()
    .max(DnsSubdomainMaxLength, `must be at most ${DnsSubdomainMaxLength} characters long`)
    .regex(dnsSubdomainRe, NameMessage);
}

/**
 * `metadata` of a top-level object. The API server validates it itself (the CRD cannot
 * constrain it), so this schema checks the same things up front: a valid name (or a
 * generateName prefix), string-valued labels and annotations. Every other metadata field
 * (uid, resourceVersion, ownerReferences, finalizers, ...) passes through untouched.
 */
export const objectMetaSchema = z
  .looseObject({
    name: objectName().optional(),
    generateName: z.string().optional(),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string({ error: 'label values must be strings' })).optional(),
    annotations: z.record(z.string(), z.string({ error: 'annotation values must be strings' })).optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.int().optional(),
    creationTimestamp: z.string().optional(),
    deletionTimestamp: z.string().optional(),
    finalizers: z.array(z.string()).optional(),
  })
  .superRefine((meta, ctx) => {
    if (meta.name === undefined && (meta.generateName === undefined || meta.generateName === '')) {
      ctx.addIssue({ code: 'custom', message: 'name is required', path: ['name'], input: meta });
    }
  });
export type ObjectMeta = z.output<typeof objectMetaSchema>;
