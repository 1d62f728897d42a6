import { z } from 'zod';
import { CapacityTypes, Labels } from '../apis/labels.js';
import { type NodePool, type NodePoolInput, nodePoolSchema } from '../apis/v1/nodepool.js';
import { type DeepPartial, mergeOverrides } from './merge.js';
import { TestNodeClassRef } from './node-class.js';

/** The NodePool every `aNodePool()` starts from: `default`, on-demand or spot, the test NodeClass. */
function baseNodePool(): NodePoolInput {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { ...TestNodeClassRef },
          requirements: [
            {
              key: Labels.CapacityType,
              operator: 'In',
              values: [CapacityTypes.OnDemand, CapacityTypes.Spot],
            },
          ],
        },
      },
    },
  };
}

/**
 * A valid NodePool with the API server's defaults applied (expireAfter 720h, budgets 10%, ...),
 * the overrides merged in first (objects merge, arrays replace).
 * @throws Error with the schema's message when the overrides make it invalid.
 */
export function aNodePool(overrides?: DeepPartial<NodePoolInput>): NodePool {
  const merged = mergeOverrides(baseNodePool(), overrides);
  const parsed = nodePoolSchema.safeParse(merged);
  if (!parsed.success) throw new Error(`aNodePool: invalid NodePool\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
