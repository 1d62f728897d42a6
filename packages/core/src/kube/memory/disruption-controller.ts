import type { PodDisruptionBudgetLike } from '../disruption-budget.js';
import { DISRUPTED_POD_TIMEOUT_MS } from '../disruption-budget.js';
import { isConflict, isNotFound } from '../errors.js';
import { jsonEqual } from '../json.js';
import type { KubeObject } from '../object.js';
import { formatTime, parseTime } from '../object.js';
import { isPodReady, type PodLike } from '../pod.js';
import { Deployments, PodDisruptionBudgets, Pods, ReplicaSets, StatefulSets } from '../resource-types.js';
import type { Watch } from '../watch.js';
import type { MemoryClusterPlugin } from './extensions.js';
import type { MemoryCluster } from './memory-cluster.js';

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

/**
 * kube-controller-manager's disruption controller as a plug-in: keeps every PDB's status
 * (expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed, disruptedPods, the
 * DisruptionAllowed condition, observedGeneration) current as pods, budgets and workload
 * controllers change, for readers such as disruption candidate checks. Eviction itself does
 * not depend on it: the Eviction API computes budgets at call time.
 */
export class PodDisruptionBudgetStatusController implements MemoryClusterPlugin {
  readonly name = 'disruption-controller';

  start(cluster: MemoryCluster): () => void {
    const inputs = new SyncInputs();
    const sync = async (namespace: string | undefined): Promise<void> => {
      if (namespace === undefined) return;
      const now = cluster.clock.now();
      if (!inputs.needsSync(namespace, now, () => recordsDisruptions(cluster, namespace))) return;
      inputs.synced(namespace, now);
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await this.#syncNamespace(cluster, namespace);
          return;
        } catch (err) {
          if (!isConflict(err) && !isNotFound(err)) {
            inputs.changed(namespace);
            throw err;
          }
        }
      }
      inputs.changed(namespace);
    };
    const onEvent = async (event: { type: string; object?: KubeObject }) => {
      if (event.type === 'ERROR' || event.object === undefined) return;
      inputs.changed(event.object.metadata.namespace);
      await sync(event.object.metadata.namespace);
    };
    const onPodEvent = async (event: { type: string; object?: KubeObject }) => {
      if (event.type === 'ERROR' || event.object === undefined) return;
      inputs.podEvent(event.type, event.object as PodLike);
      await sync(event.object.metadata.namespace);
    };
    const watches: Watch[] = [
      cluster.watch(Pods, onPodEvent),
      ...[PodDisruptionBudgets, ReplicaSets, Deployments, StatefulSets].map((type) =>
        cluster.watch(type, onEvent),
      ),
    ];
    return () => {
      for (const w of watches) w.stop();
    };
  }

  async #syncNamespace(cluster: MemoryCluster, namespace: string): Promise<void> {
    const now = cluster.clock.now();
    // Read without copies: nothing here writes to them (updateStatus copies its argument).
    const pdbs = cluster.peek<PodDisruptionBudgetLike>(PodDisruptionBudgets, { namespace });
    if (pdbs.length === 0) return;
    // The namespace's pods by name, listed only for a budget with approved evictions to check.
    let present: Map<string, PodLike> | undefined;
    for (const pdb of pdbs) {
      const computed = cluster.disruptionStatus(pdb);
      const disrupted: Record<string, string> = {};
      for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
        present ??= new Map(cluster.peek(Pods, { namespace }).map((p) => [p.metadata.name ?? '', p]));
        const pod = present.get(name);
        if (pod === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
        if (parseTime(at) + DISRUPTED_POD_TIMEOUT_MS <= now) continue;
        disrupted[name] = at;
      }
      const allowed = computed.disruptionsAllowed > 0;
      const previous = ((pdb.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find(
        (c) => c.type === 'DisruptionAllowed',
      );
      const status: 'True' | 'False' = allowed ? 'True' : 'False';
      const condition: Condition = {
        type: 'DisruptionAllowed',
        status,
        reason: computed.error !== undefined ? 'SyncFailed' : allowed ? 'SufficientPods' : 'InsufficientPods',
        message: computed.error ?? '',
        observedGeneration: pdb.metadata.generation ?? 0,
        lastTransitionTime:
          previous !== undefined && previous.status === status
            ? previous.lastTransitionTime
            : formatTime(now),
      };
      const next = {
        observedGeneration: pdb.metadata.generation ?? 0,
        disruptionsAllowed: computed.disruptionsAllowed,
        currentHealthy: computed.currentHealthy,
        desiredHealthy: computed.desiredHealthy,
        expectedPods: computed.expectedPods,
        ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
        conditions: [condition],
      };
      if (jsonEqual(next, pdb.status)) continue;
      const updated: PodDisruptionBudgetLike = { ...pdb, status: next };
      await cluster.updateStatus(PodDisruptionBudgets, updated, { fieldManager: 'kube-controller-manager' });
    }
  }
}

/**
 * Whether a budget of the namespace holds approved evictions (`status.disruptedPods`): the only
 * part of a status that changes with time alone, as those approvals expire.
 */
function recordsDisruptions(cluster: MemoryCluster, namespace: string): boolean {
  return cluster
    .peek<PodDisruptionBudgetLike>(PodDisruptionBudgets, { namespace })
    .some((pdb) => Object.keys(pdb.status?.disruptedPods ?? {}).length > 0);
}

/** The facts of a pod a budget's status depends on: whether it is selected, healthy, and whose. */
function podFacts(pod: PodLike): unknown {
  return [
    pod.metadata.labels ?? {},
    pod.metadata.ownerReferences ?? [],
    pod.metadata.deletionTimestamp ?? null,
    isPodReady(pod),
  ];
}

/**
 * Which namespaces' budget inputs changed since their last sync. A sync reads only pods'
 * selection, health and controller facts, the budgets, the workload controllers and the clock,
 * so a namespace whose inputs are unchanged would compute what it last wrote: the sync is
 * skipped. The clock counts only while a budget holds approved evictions, whose expiry changes
 * the status; otherwise a later instant alone is no reason to sync. At 500 nodes the simulated
 * kube-scheduler's and kubelets' status patches (PodScheduled, heartbeats) otherwise re-count
 * every pod of the namespace on each patch.
 */
class SyncInputs {
  readonly #pods = new Map<string, unknown>();
  readonly #dirty = new Set<string>();
  readonly #syncedAt = new Map<string, number>();

  podEvent(type: string, pod: PodLike): void {
    const namespace = pod.metadata.namespace;
    const key = `${namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (type === 'DELETED') {
      this.#pods.delete(key);
      this.changed(namespace);
      return;
    }
    const facts = podFacts(pod);
    const before = this.#pods.get(key);
    this.#pods.set(key, facts);
    if (before === undefined || type !== 'MODIFIED' || !jsonEqual(before, facts)) this.changed(namespace);
  }

  changed(namespace: string | undefined): void {
    if (namespace !== undefined) this.#dirty.add(namespace);
  }

  /** `timed`: whether the namespace's statuses depend on the clock (asked only when it matters). */
  needsSync(namespace: string, now: number, timed: () => boolean): boolean {
    if (this.#dirty.has(namespace)) return true;
    const at = this.#syncedAt.get(namespace);
    return at === undefined || (at !== now && timed());
  }

  synced(namespace: string, now: number): void {
    this.#dirty.delete(namespace);
    this.#syncedAt.set(namespace, now);
  }
}
