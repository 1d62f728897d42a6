import type { Registry } from 'prom-client';
import type { KubeObject, ObjectKey } from '../../kube/object.js';
import { groupOf, type ResourceType } from '../../kube/resource-type.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { SeriesTracker } from '../series.js';
import { type StatusConditionMetrics, statusConditionMetrics } from './status-condition-metrics.js';
import { conditionTransitions, type ObservedCondition, observedConditions } from './transitions.js';

/**
 * `<kind>.status`: operatorpkg's status-condition metrics for one kind (Karpenter runs it for
 * NodePools, NodeClaims and its NodeClasses). Per object, `operator_status_condition_count` = 1
 * for each condition it has now (`namespace`, `name`, `group`, `kind`, `type`, `status`,
 * `reason`); each transition it observes counts in `operator_status_condition_transitions_total`
 * and, when it saw the previous status, observes how long that status held in
 * `operator_status_condition_transition_seconds`. The first observation of an object after a
 * start counts its conditions as transitions, as upstream's does. An object that is gone
 * takes its count series with it.
 */
export class StatusConditionMetricsController implements Controller {
  readonly name: string;
  readonly watches;
  readonly #type: ResourceType;
  readonly #group: string;
  readonly #metrics: StatusConditionMetrics;
  readonly #series = new SeriesTracker();
  /** What was observed of each object's conditions last time, by `namespace/name`. */
  readonly #observed = new Map<string, ObservedCondition[]>();

  constructor(type: ResourceType, registry: Registry) {
    this.#type = type;
    this.#group = groupOf(type);
    this.name = `${type.kind.toLowerCase()}.status`;
    this.#metrics = statusConditionMetrics(registry);
    this.watches = [watchSelf(type)];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const id = `${key.namespace ?? ''}/${key.name}`;
    const object = context.cache.get<KubeObject>(this.#type, key);
    if (object === undefined) {
      this.#series.remove(id);
      this.#observed.delete(id);
      return undefined;
    }
    const kind = { group: this.#group, kind: this.#type.kind };
    const conditions = observedConditions(object);
    this.#series.replace(
      id,
      this.#metrics.count,
      conditions.map((c) => ({
        labels: {
          namespace: key.namespace ?? '',
          name: key.name,
          ...kind,
          type: c.type,
          status: c.status,
          reason: c.reason,
        },
        value: 1,
      })),
    );
    for (const t of conditionTransitions(this.#observed.get(id), conditions)) {
      this.#metrics.transitionsTotal.inc({ ...kind, type: t.type, status: t.status, reason: t.reason });
      if (t.from?.seconds !== undefined) {
        this.#metrics.transitionSeconds.observe(
          { ...kind, type: t.type, status: t.from.status },
          t.from.seconds,
        );
      }
    }
    this.#observed.set(id, conditions);
    return undefined;
  }
}
