/** The part of an HTTP response a rejection is read from. */
export interface ResponseLike {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** One field error the API server reported (a `metav1.StatusCause`). */
export interface ServerCause {
  /** As the server spells it, e.g. `spec.kubelet.evictionHard.memory.available`. */
  readonly field: string;
  /** `FieldValueInvalid`, `FieldValueRequired`, ...; `FieldValueUnknown` for strict decoding. */
  readonly reason: string;
  readonly message: string;
}

/** Why the API server refused a request: the Status it answered with, causes unpacked. */
export interface Rejection {
  readonly code: number;
  /** The Status reason, e.g. `Invalid` or `BadRequest`. */
  readonly reason: string;
  readonly message: string;
  readonly causes: readonly ServerCause[];
}

/**
 * The server's placeholder cause when it skipped CEL rules because the schema already failed;
 * it names no field and says nothing about the rule under test.
 */
const SkippedRulesCause = 'some validation rules were not checked';

/**
 * Reads a refused request's Status. A cause without a field (`<nil>`) gets the one its
 * message names, if any. A strict-decoding failure (400 BadRequest, `strict
 * decoding error: unknown field "spec.x"`, what `fieldValidation=Strict` - kubectl's default
 * - gives for unknown fields) carries no causes, so each unknown field it names becomes a
 * cause with reason `FieldValueUnknown` and message `unknown field "<path>"`.
 */
export function rejectionOf(response: ResponseLike): Rejection {
  const body = record(response.body);
  const message = typeof body.message === 'string' ? body.message : response.text;
  const details = record(body.details);
  const causes: ServerCause[] = [];
  for (const raw of Array.isArray(details.causes) ? details.causes : []) {
    const cause = record(raw);
    const text = typeof cause.message === 'string' ? cause.message : '';
    if (text.includes(SkippedRulesCause)) continue;
    causes.push({
      field: fieldOf(cause.field, text),
      reason: typeof cause.reason === 'string' ? cause.reason : '',
      message: text,
    });
  }
  for (const match of message.matchAll(/unknown field "([^"]+)"/g)) {
    const field = match[1] ?? '';
    causes.push({ field, reason: 'FieldValueUnknown', message: `unknown field "${field}"` });
  }
  return {
    code: typeof body.code === 'number' ? body.code : response.status,
    reason: typeof body.reason === 'string' ? body.reason : '',
    message,
    causes,
  };
}

/**
 * The cause's field. Format errors (`Checked value must be of type integer with format int32
 * in spec.kubelet.maxPods`) come with the field `<nil>` and name it at the end of the message.
 */
function fieldOf(field: unknown, message: string): string {
  if (typeof field === 'string' && field !== '<nil>') return field;
  return / in ([A-Za-z_][^\s]*)$/.exec(message)?.[1] ?? '';
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
