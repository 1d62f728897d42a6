import type { RuleCase, SchemaNode } from '@nodewright/core/apis';
import { canonicalFieldPath, schemaAt } from './field-path.js';
import { type Agreement, messageAgreement } from './message-agreement.js';
import type { Rejection, ServerCause } from './server-rejection.js';

/** What the API server's refusal of a rule case's `invalid` manifest says about the rule. */
export interface RuleVerdict {
  /** The server refused at the case's field, with the case's message or its meaning. */
  readonly agrees: boolean;
  /** Where the server should report it: the case's `serverPath`, else its `path`. */
  readonly field: string;
  readonly cause?: ServerCause;
  readonly agreement?: Agreement;
  /** One line when it agrees; otherwise a side-by-side of what each side said. */
  readonly explanation: string;
}

/**
 * Judges a refusal against the rule case it was provoked by. The server must answer 422
 * Invalid - or 400 BadRequest for a strict-decoding (unknown field) error, which the server
 * reports before validation - with a cause at `serverPath ?? path` whose message agrees with
 * the case's (see messageAgreement). `schema` is the CRD's openAPIV3Schema, used to check a
 * pattern failure is that field's pattern.
 */
export function judgeRejection(ruleCase: RuleCase, rejection: Rejection, schema: SchemaNode): RuleVerdict {
  const field = ruleCase.serverPath ?? ruleCase.path;
  const wanted = canonicalFieldPath(field);
  const fieldSchema = schemaAt(schema, ruleCase.path);
  const atField = rejection.causes.filter((c) => canonicalFieldPath(c.field) === wanted);
  for (const cause of atField) {
    const agreement = messageAgreement(ruleCase.message, cause, fieldSchema);
    if (agreement === undefined) continue;
    const expectedCode = cause.reason === 'FieldValueUnknown' ? 400 : 422;
    if (rejection.code !== expectedCode) {
      const problem = `the server answered ${rejection.code}, not ${expectedCode}`;
      return { agrees: false, field, explanation: disagreement(ruleCase, rejection, problem) };
    }
    const how = agreement.kind === 'same' ? 'same message' : `same meaning via ${agreement.how}`;
    return { agrees: true, field, cause, agreement, explanation: `${field}: ${how}: ${cause.message}` };
  }
  const problem =
    atField.length === 0
      ? `the server reported nothing at ${field}`
      : `the server's message at ${field} does not say what nodewright says`;
  return { agrees: false, field, explanation: disagreement(ruleCase, rejection, problem) };
}

function disagreement(ruleCase: RuleCase, rejection: Rejection, problem: string): string {
  const causes = rejection.causes.length
    ? rejection.causes.map((c) => `      ${c.field || '(no field)'}  [${c.reason}]  ${c.message}`)
    : [`      (no causes) ${rejection.message}`];
  return [
    `rule "${ruleCase.rule}": ${problem}`,
    `  - nodewright  ${ruleCase.path}: ${ruleCase.message}`,
    `  + server      ${rejection.code} ${rejection.reason}:`,
    ...causes,
  ].join('\n');
}
