import { z } from 'zod';
import { celList, celString, type PairedRule, withRules } from '../common/cel.js';
import { labelValue, qualifiedName } from '../common/primitives.js';
import { CapacityTypes, Labels } from '../labels.js';
import { restrictedLabelRules } from './restricted-labels.js';

/** Operators a NodePool or NodeClaim requirement may use. */
export const NodeSelectorOperators = [
  'In',
  'NotIn',
  'Exists',
  'DoesNotExist',
  'Gt',
  'Lt',
  'Gte',
  'Lte',
] as const;
export type NodeSelectorOperator = (typeof NodeSelectorOperators)[number];
const NumericOperators: readonly NodeSelectorOperator[] = ['Gt', 'Lt', 'Gte', 'Lte'];

/** Most requirements in one NodePool or NodeClaim. */
export const MaxRequirements = 100;
/**
 * Most values in one requirement. Upstream sets no bound; the API server needs one to
 * estimate the cost of the CEL rules that look at values. NodeClaims list up to 600 instance
 * types, so the bound leaves room above that.
 */
export const MaxRequirementValues = 1000;
export const MaxMinValues = 50;

const KnownCapacityTypes: readonly string[] = [
  CapacityTypes.OnDemand,
  CapacityTypes.Spot,
  CapacityTypes.Reserved,
];
const NonNegativeInteger = /^[0-9]{1,18}$/;

const OperatorMessage = `must be one of ${NodeSelectorOperators.join(', ')}`;

interface Requirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[] | undefined;
  minValues?: number | undefined;
}

const valueCount = (r: Requirement) => r.values?.length ?? 0;

/** The rules a requirement obeys as a whole, each in CEL and TypeScript. */
export const RequirementRules: readonly PairedRule<Requirement>[] = [
  {
    cel: {
      rule: "self.operator != 'In' || (has(self.values) && self.values.size() > 0)",
      message: 'operator In needs at least one value',
      fieldPath: '.values',
    },
    check: (r) => r.operator === 'In' && valueCount(r) === 0 && { path: ['values'] },
  },
  {
    cel: {
      rule: `!(self.operator in ${celList(NumericOperators)}) || (has(self.values) && self.values.size() == 1 && self.values[0].matches(${celString(NonNegativeInteger.source)}))`,
      message: 'operators Gt, Lt, Gte and Lte need exactly one value, a non-negative integer',
      fieldPath: '.values',
    },
    check: (r) =>
      NumericOperators.includes(r.operator) &&
      !(r.values?.length === 1 && NonNegativeInteger.test(r.values[0]!)) && { path: ['values'] },
  },
  {
    cel: {
      rule: "!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || self.values.size() == 0",
      message: 'operators Exists and DoesNotExist take no values',
      fieldPath: '.values',
    },
    check: (r) =>
      (r.operator === 'Exists' || r.operator === 'DoesNotExist') && valueCount(r) > 0 && { path: ['values'] },
  },
  {
    cel: {
      rule: "!(self.operator == 'In' && has(self.minValues)) || (has(self.values) && self.values.size() >= self.minValues)",
      message: 'minValues must not exceed the number of values',
      fieldPath: '.minValues',
    },
    check: (r) =>
      r.operator === 'In' &&
      r.minValues !== undefined &&
      valueCount(r) < r.minValues && { path: ['minValues'] },
  },
  {
    cel: {
      rule: `self.key != '${Labels.CapacityType}' || self.operator != 'In' || !has(self.values) || self.values.exists(v, v in ${celList(KnownCapacityTypes)})`,
      message: `${Labels.CapacityType} needs at least one known capacity type: ${KnownCapacityTypes.join(', ')}`,
      fieldPath: '.values',
    },
    check: (r) =>
      r.key === Labels.CapacityType &&
      r.operator === 'In' &&
      valueCount(r) > 0 &&
      !r.values!.some((v) => KnownCapacityTypes.includes(v)) && { path: ['values'] },
  },
  {
    cel: {
      rule: `self.key != '${Labels.CapacityType}' || self.operator != 'In' || !has(self.values) || !has(self.minValues) || self.values.filter(v, v in ${celList(KnownCapacityTypes)}).size() >= self.minValues`,
      message: `minValues must not exceed the number of known capacity types (${KnownCapacityTypes.join(', ')}) among the values`,
      fieldPath: '.minValues',
    },
    check: (r) =>
      r.key === Labels.CapacityType &&
      r.operator === 'In' &&
      r.minValues !== undefined &&
      valueCount(r) >= r.minValues &&
      r.values!.filter((v) => KnownCapacityTypes.includes(v)).length < r.minValues && { path: ['minValues'] },
  },
];

/**
 * A requirement (`key`, `operator`, `values`, `minValues`). NodePools also reject the
 * `karpenter.sh/nodepool` key, which NodeClaims carry.
 */
export function requirementSchema(kind: 'NodePool' | 'NodeClaim') {
  const key = withRules(
    qualifiedName(),
    restrictedLabelRules(kind).map((rule) => ({
      cel: { rule: rule.cel('self'), message: rule.message },
      check: (k: string) => !rule.allows(k) && {},
    })),
  ).describe('The label key the requirement applies to.');
  const shape = z.strictObject({
    key,
    operator: z
      .enum(NodeSelectorOperators, { error: OperatorMessage })
      .describe("The key's relationship to the values: In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte or Lte."),
    values: z
      .array(labelValue())
      .max(MaxRequirementValues, `must have at most ${MaxRequirementValues} values`)
      .meta({
        'x-kubernetes-list-type': 'atomic',
        description:
          'Values for In and NotIn (In needs at least one); exactly one non-negative integer for Gt, Lt, Gte and Lte; none for Exists and DoesNotExist.',
      })
      .optional(),
    minValues: z
      .int()
      .min(1, 'must be at least 1')
      .max(MaxMinValues, `must be at most ${MaxMinValues}`)
      .describe('The least number of distinct values of this key the launchable instance types must offer.')
      .optional(),
  });
  return withRules(shape, RequirementRules).describe(
    'A node selector requirement with an optional minimum number of distinct values.',
  );
}

/** A NodeClaim's requirement. */
export const nodeSelectorRequirementWithMinValues = requirementSchema('NodeClaim');
/** A NodePool template's requirement (the `karpenter.sh/nodepool` key is also restricted). */
export const nodePoolRequirementSchema = requirementSchema('NodePool');
export type NodeSelectorRequirementWithMinValues = z.output<typeof nodeSelectorRequirementWithMinValues>;

/** A list of requirements, at most 100. */
export function requirementsSchema(kind: 'NodePool' | 'NodeClaim') {
  return z
    .array(kind === 'NodePool' ? nodePoolRequirementSchema : nodeSelectorRequirementWithMinValues)
    .max(MaxRequirements, `must have at most ${MaxRequirements} requirements`)
    .meta({ 'x-kubernetes-list-type': 'atomic' });
}
