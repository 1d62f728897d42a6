import { z } from 'zod';

/**
 * Building blocks shared by nodewright's Kubernetes schemas. Each carries the OpenAPI keywords
 * (pattern, maxLength, format) the CRD generator turns into the CRD, so zod and the API
 * server check the same thing.
 */

/** A DNS label: lower-case alphanumerics and '-', at most 63 characters. */
const DnsLabel = '[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?';
/** A label name or the name part of a qualified name: at most 63 characters. */
const NamePart = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';

/**
 * A Kubernetes qualified name (label key, taint key, annotation key): an optional DNS-subdomain
 * prefix and a slash, then a name of at most 63 characters.
 */
export const QualifiedNamePattern = `^(${DnsLabel}(\\.${DnsLabel})*/)?${NamePart}$`;
/** Longest qualified name: a 253-character prefix, the slash and a 63-character name. */
export const QualifiedNameMaxLength = 316;
/** A label value: empty, or at most 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric. */
export const LabelValuePattern = `^(${NamePart})?$`;
export const LabelValueMaxLength = 63;

/** A DNS subdomain, the rule for most object names: at most 253 characters. */
export const DnsSubdomainPattern = `^${DnsLabel}(\\.${DnsLabel})*$`;
export const DnsSubdomainMaxLength = 253;

/** Kubernetes' resource.Quantity syntax, as the API server checks int-or-string quantities. */
export const QuantityPattern =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const qualifiedNameRe = new RegExp(QualifiedNamePattern);
const labelValueRe = new RegExp(LabelValuePattern);
const quantityRe = new RegExp(QuantityPattern);

/** True if `key` is a valid label key (a qualified name). */
export function isQualifiedName(key: string): boolean {
  return key.length <= QualifiedNameMaxLength && qualifiedNameRe.test(key);
}

/** True if `value` is a valid label value. */
export function isLabelValue(value: string): boolean {
  return value.length <= LabelValueMaxLength && labelValueRe.test(value);
}

/** True if `text` is a Kubernetes quantity such as `100m`, `2Gi`, `1.5` or `1e3`. */
export function isQuantity(text: string): boolean {
  return quantityRe.test(text);
}

export const QualifiedNameMessage =
  'must be a qualified name: an optional DNS prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
export const LabelValueMessage =
  'must be a label value: empty, or at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';

/**
 * A qualified name (label or taint key). With `nonEmpty`, an empty string gets only the
 * "must not be empty" error, not the syntax one as well.
 */
export function qualifiedName(options: { nonEmpty?: boolean } = {}) {
  const base = options.nonEmpty ? z.string().min(1, { error: 'must not be empty', abort: true }) : z.string();
  return base
    .max(QualifiedNameMaxLength, `must be at most ${QualifiedNameMaxLength} characters long`)
    .regex(qualifiedNameRe, QualifiedNameMessage);
}

/** A label value. */
export function labelValue() {
  return z
    .string()
    .max(LabelValueMaxLength, `must be at most ${LabelValueMaxLength} characters long`)
    .regex(labelValueRe, LabelValueMessage);
}

/**
 * A resource quantity, written as an integer or a string (`cpu: 2`, `memory: 4Gi`). Parsing
 * yields the string form, so consumers see one type.
 */
export function quantity() {
  return z
    .union([z.int(), z.string()], { error: 'must be a quantity such as 500m, 2Gi or 4' })
    .refine((v) => typeof v === 'number' || quantityRe.test(v), 'must be a quantity such as 500m, 2Gi or 4')
    .transform((v) => String(v))
    .meta({ 'x-kubernetes-int-or-string': true, pattern: QuantityPattern });
}

/** A map of resource names to quantities (`{cpu: "4", memory: 16Gi}`). */
export function resourceList() {
  return z.record(z.string(), quantity());
}
/**
 * A resource list as written in objects (`{cpu: "4"}`); `parseResourceList` (scheduling) turns
 * it into the `ResourceList` of parsed quantities the scheduler computes with.
 */
export type ResourceListJson = Record<string, string>;

/** An integer the API server stores as int64. */
export function int64() {
  return z.int().meta({ format: 'int64' });
}

/** An integer the API server stores as int32. */
export function int32() {
  return z.int32().meta({ format: 'int32' });
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const DATE_TIME_MESSAGE = 'must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z';

/**
 * Whether the API server's date-time format accepts the text: RFC 3339 with a `T`, a real
 * calendar date, hours 0-23, and an offset of at most 24:59 (Go's time.Parse allows 24).
 */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 24 || Number(m[10]) > 59)) return false;
  return true;
}

/** An RFC 3339 timestamp as Kubernetes writes it (`2024-01-02T15:04:05Z`). */
export function dateTime() {
  return z
    .string()
    .refine(isDateTime, DATE_TIME_MESSAGE)
    .meta({ format: 'date-time', 'x-nodewright-drop-pattern': true });
}
