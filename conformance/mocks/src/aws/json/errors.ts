/**
 * An error of the AWS JSON protocols: `__type` (with the service namespace, as SQS sends it, or
 * the bare shape name) and message, the HTTP status, and for SQS the `x-amzn-query-error` code
 * its query-compatible clients read.
 */
export class AwsJsonError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
    readonly queryError?: string,
  ) {
    super(message);
    this.name = type.split('#').pop() ?? type;
  }
}

/** A JSON protocol action: the parsed body in, the response object out (awaited: SQS long-polls). */
export type JsonAction<C> = (input: Readonly<Record<string, unknown>>, ctx: C) => unknown;

/** The field as a string, or undefined; throws naming the field when it has another type. */
export function jsonString(
  input: Readonly<Record<string, unknown>>,
  field: string,
  type: string,
): string | undefined {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new AwsJsonError(type, `${field}: expected a string, got ${typeof v}`);
  return v;
}

/** The field as a number, or undefined; throws naming the field when it has another type. */
export function jsonNumber(
  input: Readonly<Record<string, unknown>>,
  field: string,
  type: string,
): number | undefined {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new AwsJsonError(type, `${field}: expected a number, got ${typeof v}`);
  return v;
}
