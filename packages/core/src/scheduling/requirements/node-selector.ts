/** Node selector operators: Kubernetes' six plus Karpenter's Gte and Lte. */
export const RequirementOperators = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
  Gt: 'Gt',
  Lt: 'Lt',
  Gte: 'Gte',
  Lte: 'Lte',
} as const;
export type RequirementOperator = (typeof RequirementOperators)[keyof typeof RequirementOperators];

const OPERATORS: ReadonlySet<string> = new Set(Object.values(RequirementOperators));

export function isRequirementOperator(op: string): op is RequirementOperator {
  return OPERATORS.has(op);
}

/** A NodeSelectorRequirement as Karpenter writes it (NodeSelectorRequirementWithMinValues). */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values?: readonly string[];
  readonly minValues?: number;
}

/** What a manifest may hold before validation: any operator string, null for absent fields. */
export interface NodeSelectorRequirementInput {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
  readonly minValues?: number | null;
}

/** A node selector requirement the algebra cannot interpret. */
export class RequirementError extends Error {
  override readonly name = 'RequirementError';
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`key ${key}: ${reason}`);
    this.key = key;
  }
}

/** Go's strconv.ParseInt(s, 10, 64) acceptance: optional sign, ASCII digits, int64 range. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The int64 a string spells, or undefined (as strconv.ParseInt would fail). */
export function parseInt64(value: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * Why a requirement cannot be interpreted, or undefined when it can. Stricter than the algebra
 * needs only where Kubernetes is: bounded operators take exactly one int64, Exists and
 * DoesNotExist take none. Empty In/NotIn lists are accepted (they mean "nothing" and "anything").
 */
export function nodeSelectorRequirementProblem(r: NodeSelectorRequirementInput): string | undefined {
  if (!isRequirementOperator(r.operator)) return `unknown operator ${JSON.stringify(r.operator)}`;
  const values = r.values ?? [];
  switch (r.operator) {
    case 'Gt':
    case 'Lt':
    case 'Gte':
    case 'Lte':
      if (values.length !== 1 || parseInt64(values[0]!) === undefined) {
        return `operator ${r.operator} takes exactly one integer value, got ${JSON.stringify(values)}`;
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) return `operator ${r.operator} takes no values, got ${JSON.stringify(values)}`;
      break;
    default:
      break;
  }
  const mv = r.minValues;
  if (mv !== undefined && mv !== null && (!Number.isInteger(mv) || mv < 1)) {
    return `minValues must be a positive integer, got ${mv}`;
  }
  return undefined;
}
