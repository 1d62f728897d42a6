import type { NodePool } from '../../apis/v1/nodepool.js';
import { isNotFound } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { groupOf, type ResourceType } from '../../kube/resource-type.js';
import type { ConditionStatus } from '../../lifecycle/conditions.js';

/** Whether the NodeClass a NodePool references is ready, as its NodeClassReady condition says. */
export interface NodeClassReadiness {
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/**
 * Reads a NodePool's NodeClass readiness. NodeClasses are provider kinds, so core asks through
 * this function (providers or the composition root supply it).
 */
export type NodeClassReadinessCheck = (nodePool: NodePool) => Promise<NodeClassReadiness>;

interface WithConditions extends KubeObject {
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

/**
 * The usual check: find the referenced NodeClass among `types` (by group and kind), get it, and
 * read its `Ready` condition. Missing kind or object is False (`NodeClassNotFound`); no Ready
 * condition yet is Unknown.
 */
export function readinessFromReadyCondition(
  cluster: ClusterPort,
  types: readonly ResourceType[],
): NodeClassReadinessCheck {
  return async (nodePool) => {
    const ref = nodePool.spec.template.spec.nodeClassRef;
    const type = types.find((t) => groupOf(t) === ref.group && t.kind === ref.kind);
    const missing = {
      status: 'False' as const,
      reason: 'NodeClassNotFound',
      message: `${ref.kind} ${ref.name} (group ${ref.group}) not found`,
    };
    if (type === undefined) return missing;
    let nodeClass: WithConditions;
    try {
      nodeClass = await cluster.get<WithConditions>(type, { name: ref.name });
    } catch (err) {
      if (isNotFound(err)) return missing;
      throw err;
    }
    if (nodeClass.metadata.deletionTimestamp !== undefined) {
      return {
        status: 'False',
        reason: 'NodeClassTerminating',
        message: `${ref.kind} ${ref.name} is being deleted`,
      };
    }
    const ready = nodeClass.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready === undefined) {
      return {
        status: 'Unknown',
        reason: 'AwaitingReconciliation',
        message: `${ref.kind} ${ref.name} has no Ready condition yet`,
      };
    }
    if (ready.status === 'True') return { status: 'True', reason: 'NodeClassReady', message: '' };
    return {
      status: ready.status === 'False' ? 'False' : 'Unknown',
      reason: ready.reason || 'NodeClassNotReady',
      message: ready.message ?? '',
    };
  };
}

/** A check that reports every NodeClass ready; for tests and providers without NodeClass status. */
export const alwaysReady: NodeClassReadinessCheck = async () => ({
  status: 'True',
  reason: 'NodeClassReady',
  message: '',
});
