import { z } from 'zod';
import { withCel } from '../common/cel.js';

/**
 * The NodeClass a NodePool or NodeClaim uses: its API group, kind and name, all required.
 * Group and kind may not change once set (a NodePool can move to another NodeClass of the
 * same kind, never to another provider); the API server enforces that with transition rules
 * and `validateNodePoolUpdate` does the same for nodewright.
 */
export const nodeClassRefSchema = withCel(
  z
    .strictObject({
      group: z
        .string()
        .min(1, 'must not be empty')
        .max(253, 'must be at most 253 characters long')
        .regex(/^[^/]*$/, 'must be an API group without a version, e.g. karpenter.k8s.aws')
        .describe('API group of the NodeClass, e.g. karpenter.k8s.aws.'),
      kind: z
        .string()
        .min(1, 'must not be empty')
        .max(63, 'must be at most 63 characters long')
        .describe('Kind of the NodeClass, e.g. EC2NodeClass.'),
      name: z
        .string()
        .min(1, 'must not be empty')
        .max(253, 'must be at most 253 characters long')
        .describe('Name of the NodeClass.'),
    })
    .describe('The provider-specific NodeClass the nodes are configured by.'),
  [
    { rule: 'self.group == oldSelf.group', message: 'nodeClassRef.group is immutable' },
    { rule: 'self.kind == oldSelf.kind', message: 'nodeClassRef.kind is immutable' },
  ],
);
export type NodeClassRef = z.output<typeof nodeClassRefSchema>;
