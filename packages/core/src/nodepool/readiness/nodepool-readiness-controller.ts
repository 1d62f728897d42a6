import { z } from 'zod';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { nodePoolSchema } from '../../apis/v1/nodepool.js';
import type { Clock } from '../../clock/clock.js';
import { isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { groupOf, type ResourceType } from '../../kube/resource-type.js';
import { NodePools } from '../../kube/resource-types.js';
import {
  ConditionTypes,
  type ConditionUpdate,
  rootCondition,
  setCondition,
} from '../../lifecycle/conditions.js';
import {
  type Controller,
  type ReconcileResult,
  type WatchSource,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import type { NodeClassReadinessCheck } from './node-class-readiness.js';

/** ValidationSucceeded for a NodePool: True when it passes the schema (CEL rules included), else False with why. */
export function validationCondition(nodePool: unknown): ConditionUpdate {
  const parsed = nodePoolSchema.safeParse(nodePool);
  if (parsed.success) return { type: ConditionTypes.ValidationSucceeded, status: 'True' };
  return {
    type: ConditionTypes.ValidationSucceeded,
    status: 'False',
    reason: 'NodePoolValidationFailed',
    message: z.prettifyError(parsed.error),
  };
}

/** What the readiness controller needs. */
export interface NodePoolReadinessDependencies {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly nodeClassReadiness: NodeClassReadinessCheck;
  /** NodeClass kinds to watch, so a NodeClass becoming ready re-evaluates its NodePools. */
  readonly nodeClassTypes?: readonly ResourceType[];
}

/**
 * `nodepool.readiness`: sets ValidationSucceeded (the schema's verdict), NodeClassReady (from
 * the injected check) and Ready = both, which the provisioner requires before using a pool.
 */
export class NodePoolReadinessController implements Controller {
  readonly name = 'nodepool.readiness';
  readonly watches: WatchSource[];
  readonly #deps: NodePoolReadinessDependencies;

  constructor(deps: NodePoolReadinessDependencies) {
    this.#deps = deps;
    this.watches = [
      watchSelf(NodePools),
      ...(deps.nodeClassTypes ?? []).map((type) =>
        watchMapped(type, (nodeClass, cache) =>
          cache
            .list(NodePools, (pool) => {
              const ref = pool.spec?.template?.spec?.nodeClassRef;
              return (
                ref?.name === nodeClass.metadata.name &&
                ref?.kind === type.kind &&
                ref?.group === groupOf(type)
              );
            })
            .map((pool) => ({ name: pool.metadata.name ?? '' })),
        ),
      ),
    ];
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    const { cluster, clock } = this.#deps;
    let pool: NodePool;
    try {
      pool = await cluster.get(NodePools, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (pool.metadata.deletionTimestamp !== undefined) return undefined;
    const now = clock.now();
    const generation = pool.metadata.generation;
    let conditions = setCondition(pool.status?.conditions, validationCondition(pool), now, generation);
    const nodeClass = await this.#deps.nodeClassReadiness(pool);
    conditions = setCondition(
      conditions,
      {
        type: ConditionTypes.NodeClassReady,
        status: nodeClass.status,
        reason: nodeClass.status === 'True' ? ConditionTypes.NodeClassReady : nodeClass.reason,
        message: nodeClass.message,
      },
      now,
      generation,
    );
    conditions = setCondition(
      conditions,
      rootCondition(ConditionTypes.Ready, conditions, [
        ConditionTypes.ValidationSucceeded,
        ConditionTypes.NodeClassReady,
      ]),
      now,
      generation,
    );
    if (JSON.stringify(conditions) === JSON.stringify(pool.status?.conditions ?? [])) return undefined;
    await cluster.updateStatus(NodePools, { ...pool, status: { nodes: 0, ...pool.status, conditions } });
    return undefined;
  }
}
