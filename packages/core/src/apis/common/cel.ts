import type { z } from 'zod';

/**
 * One `x-kubernetes-validations` entry as the CustomResourceDefinition carries it. `rule` is
 * CEL evaluated by the API server with `self` bound to the value the rule is attached to
 * (and `oldSelf` to its previous value for transition rules).
 */
export interface CelValidation {
  readonly rule: string;
  readonly message: string;
  /** JSONPath-like path, relative to `self`, of the field the error is reported on. */
  readonly fieldPath?: string;
  readonly reason?:
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueDuplicate';
}

/** Where a refinement found a problem, relative to the value it checked. */
export interface RuleViolation {
  readonly path?: readonly PropertyKey[];
  /** Defaults to the rule's message. */
  readonly message?: string;
}

/**
 * A validation rule stated twice: once in CEL for the API server, once in TypeScript for zod.
 * Both must accept and reject the same values; the tests hold each pair to that.
 */
export interface PairedRule<T> {
  readonly cel: CelValidation;
  /** Returns nothing when the value passes, else where and why it fails. */
  readonly check: (value: T) => Iterable<RuleViolation> | RuleViolation | undefined | false;
}

/** The CEL rules a schema carries in its metadata (inherited from the schemas it was derived from). */
export function celRulesOf(schema: z.ZodType): readonly CelValidation[] {
  const meta = schema.meta() as Record<string, unknown> | undefined;
  return (meta?.['x-kubernetes-validations'] as CelValidation[] | undefined) ?? [];
}

/**
 * Attaches rules to a schema: each rule's check becomes a zod refinement and its CEL goes into
 * the schema's `x-kubernetes-validations` metadata, which the CRD generator carries over.
 * Refinements run only on values that already passed the schema's structure, as the API
 * server only evaluates CEL on values that passed the OpenAPI checks.
 */
export function withRules<S extends z.ZodType>(schema: S, rules: readonly PairedRule<z.output<S>>[]): S {
  const refined = schema.superRefine((value, ctx) => {
    for (const rule of rules) {
      for (const violation of violations(rule.check(value as z.output<S>))) {
        ctx.addIssue({
          code: 'custom',
          message: violation.message ?? rule.cel.message,
          path: [...(violation.path ?? [])],
          input: value,
        });
      }
    }
  }) as S;
  return withCel(
    refined,
    rules.map((r) => r.cel),
  );
}

/** Appends CEL rules to a schema's metadata without a zod counterpart (use for transition rules). */
export function withCel<S extends z.ZodType>(schema: S, rules: readonly CelValidation[]): S {
  const meta = (schema.meta() as Record<string, unknown> | undefined) ?? {};
  return schema.meta({
    ...meta,
    'x-kubernetes-validations': [...celRulesOf(schema), ...rules],
  }) as S;
}

function violations(result: ReturnType<PairedRule<unknown>['check']>): RuleViolation[] {
  if (result === undefined || result === false) return [];
  if (isIterable(result)) return [...result];
  return [result];
}

function isIterable(value: unknown): value is Iterable<RuleViolation> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value;
}

/** Quotes a string as a CEL string literal. */
export function celString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A CEL list literal of strings. */
export function celList(values: Iterable<string>): string {
  return `[${[...values].map(celString).join(', ')}]`;
}
