import { z } from 'zod';

const NamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const Dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LabelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * Why `key` is not a Kubernetes qualified name (label keys, annotation keys, topology keys,
 * resource names), or undefined when it is one: an optional DNS-subdomain prefix of at most
 * 253 characters and a `/`, then a name of at most 63 alphanumerics, `-`, `_` or `.` that
 * starts and ends with an alphanumeric.
 */
export function qualifiedNameProblem(key: string): string | undefined {
  if (key === '') return 'must not be empty';
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (prefix !== undefined) {
    if (prefix === '') return 'has an empty prefix before "/"';
    if (prefix.length > 253) return 'has a prefix longer than 253 characters';
    if (!Dns1123Subdomain.test(prefix)) {
      return `has prefix ${JSON.stringify(prefix)}, which is not a lowercase DNS subdomain (e.g. example.com)`;
    }
  }
  if (name === '') return 'must have a name after the prefix';
  if (name.length > 63) return 'has a name part longer than 63 characters';
  if (!NamePart.test(name)) {
    return "must consist of alphanumerics, '-', '_' or '.', and start and end with an alphanumeric (e.g. app.kubernetes.io/name)";
  }
  return undefined;
}

/** Why `value` is not a valid label value (at most 63 characters, may be empty), or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be at most 63 characters long';
  if (!LabelValue.test(value)) {
    return "must be empty or consist of alphanumerics, '-', '_' or '.', and start and end with an alphanumeric";
  }
  return undefined;
}

/** A qualified name such as a label key or topology key. */
export const qualifiedNameSchema = z.string().superRefine((key, ctx) => {
  const problem = qualifiedNameProblem(key);
  if (problem === undefined) return;
  ctx.addIssue({ code: 'custom', message: key === '' ? problem : `${JSON.stringify(key)} ${problem}` });
});

export const labelValueSchema = z.string().superRefine((value, ctx) => {
  const problem = labelValueProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} ${problem}` });
});

/**
 * A label map. Label values written as YAML numbers or booleans (`zone: 1`) are rejected as the
 * API server rejects them; keys and values are checked for label syntax.
 */
export const labelsSchema = z.record(qualifiedNameSchema, labelValueSchema);

/** Annotation values are free text; keys follow the label-key syntax. */
export const annotationsSchema = z.record(qualifiedNameSchema, z.string());

/** An object name: non-empty, at most 253 characters (the API server's common limit). */
export const objectNameSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(253, { error: 'must be at most 253 characters long' });
