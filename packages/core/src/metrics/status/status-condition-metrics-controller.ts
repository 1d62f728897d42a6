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
import type { ConditionAges } from './condition-ages.js';
import {
  DefaultBuckets,
  kindStatusConditionMetrics,
  prometheusLabelOf,
  type StatusConditionMetrics,
  statusConditionMetrics,
} from './status-condition-metrics.js';
import type { Terminations } from './terminations.js';
import { conditionTransitions, type ObservedCondition, observedConditions } from './transitions.js';

/** Options of a kind's status-condition metrics, as Karpenter configures operatorpkg per kind. */
export interface StatusConditionMetricsOptions {
  /** Where the conditions' current ages are reported (one store for every kind of a registry). */
  readonly ages?: ConditionAges;
  /** Object label keys the kind's own families are also labelled by (`karpenter.sh/nodepool`). */
  readonly labels?: readonly string[];
  /** Buckets of the kind's own transition histogram; default Prometheus' default buckets. */
  readonly buckets?: readonly number[];
  /**
   * Whether the object's conditions are also reported in operatorpkg's deprecated generic
   * families (`operator_status_condition_*`, `group`/`kind` labels); default true. Karpenter
   * emits them for NodePools, NodeClaims and NodeClasses, not for Nodes.
   */
  readonly deprecated?: boolean;
  /** Where the kind's objects being deleted are reported (`operator_<kind>_termination_*`). */
  readonly terminations?: Terminations;
}

/**
 * `<kind>.status.metrics`: operatorpkg's status-condition metrics for one kind (Karpenter runs
 * them for NodePools, NodeClaims and its NodeClasses; operatorpkg names its controller
 * `<kind>.status`, a name providers here already give their NodeClass status controllers). Per object, `operator_status_condition_count` = 1
 * for each condition it has now (`namespace`, `name`, `group`, `kind`, `type`, `status`,
 * `reason`); each transition it observes counts in `operator_status_condition_transitions_total`
 * and, when it saw the previous status, observes how long that status held in
 * `operator_status_condition_transition_seconds`. The first observation of an object after a
 * start counts its conditions as transitions, as upstream's does. The kind's own families
 * (`operator_<kind>_status_condition_*`, see `kindStatusConditionMetrics`) get the same values,
 * labelled with `options.labels` read from the object's labels (empty when it lacks one). An
 * object that is gone takes its count series with it.
 */
export class StatusConditionMetricsController implements Controller {
  readonly name: string;
  readonly watches;
  readonly #type: ResourceType;
  readonly #group: string;
  readonly #metrics: StatusConditionMetrics | undefined;
  readonly #own: StatusConditionMetrics;
  readonly #ages: ConditionAges | undefined;
  readonly #terminations: Terminations | undefined;
  /** Object label keys, with the Prometheus label name each is reported under. */
  readonly #labels: readonly (readonly [key: string, label: string])[];
  readonly #series = new SeriesTracker();
  /** What was observed of each object's conditions last time, by `namespace/name`. */
  readonly #observed = new Map<string, ObservedCondition[]>();

  constructor(type: ResourceType, registry: Registry, options: StatusConditionMetricsOptions = {}) {
    this.#type = type;
    this.#group = groupOf(type);
    this.name = `${type.kind.toLowerCase()}.status.metrics`;
    this.#metrics = (options.deprecated ?? true) ? statusConditionMetrics(registry) : undefined;
    this.#ages = options.ages;
    this.#terminations = options.terminations;
    this.#labels = (options.labels ?? []).map((key) => [key, prometheusLabelOf(key)] as const);
    this.#own = kindStatusConditionMetrics(
      registry,
      type.kind,
      this.#labels.map(([, label]) => label),
      options.buckets ?? DefaultBuckets,
    );
    this.watches = [watchSelf(type)];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const id = `${key.namespace ?? ''}/${key.name}`;
    const object = context.cache.get<KubeObject>(this.#type, key);
    if (object === undefined) {
      this.#series.remove(id);
      this.#observed.delete(id);
      this.#ages?.set(this.#type.kind, id, []);
      this.#terminations?.gone(this.#type.kind, id);
      return undefined;
    }
    const kind = { group: this.#group, kind: this.#type.kind };
    const objectLabels = object.metadata.labels ?? {};
    const extra = Object.fromEntries(
      this.#labels.map(([objectLabel, label]) => [label, objectLabels[objectLabel] ?? '']),
    );
    const conditions = observedConditions(object);
    const named = { namespace: key.namespace ?? '', name: key.name };
    const counted = (c: ObservedCondition) => ({
      ...named,
      type: c.type,
      status: c.status,
      reason: c.reason,
    });
    if (this.#metrics !== undefined)
      this.#series.replace(
        id,
        this.#metrics.count,
        conditions.map((c) => ({ labels: { ...counted(c), ...kind }, value: 1 })),
      );
    this.#series.replace(
      id,
      this.#own.count,
      conditions.map((c) => ({ labels: { ...counted(c), ...extra }, value: 1 })),
    );
    for (const t of conditionTransitions(this.#observed.get(id), conditions)) {
      const transition = { type: t.type, status: t.status, reason: t.reason };
      this.#metrics?.transitionsTotal.inc({ ...kind, ...transition });
      this.#own.transitionsTotal.inc({ ...transition, ...extra });
      if (t.from?.seconds !== undefined) {
        const held = { type: t.type, status: t.from.status };
        this.#metrics?.transitionSeconds.observe({ ...kind, ...held }, t.from.seconds);
        this.#own.transitionSeconds.observe({ ...held, ...extra }, t.from.seconds);
      }
    }
    this.#observed.set(id, conditions);
    this.#recordTermination(object, id, named, kind, extra);
    this.#ages?.set(
      this.#type.kind,
      id,
      conditions.map((c) => ({
        generic: { ...counted(c), ...kind },
        own: { ...counted(c), ...extra },
        sinceMs: c.lastTransitionMs,
      })),
    );
    return undefined;
  }

  #recordTermination(
    object: KubeObject,
    id: string,
    named: Record<string, string>,
    kind: Record<string, string>,
    extra: Record<string, string>,
  ): void {
    if (this.#terminations === undefined) return;
    const deleting = object.metadata.deletionTimestamp;
    if (deleting === undefined) {
      this.#terminations.notTerminating(this.#type.kind, id);
      return;
    }
    const sinceMs = Date.parse(deleting);
    this.#terminations.terminating(this.#type.kind, id, {
      ...(this.#metrics === undefined ? {} : { generic: { ...named, ...kind } }),
      own: { ...named, ...extra },
      sinceMs,
    });
  }
}
