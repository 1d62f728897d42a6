import type { NodeClaim } from '@nodewright/core/apis';
import type { CloudProvider } from '@nodewright/core/cloudprovider';
import { NodeClaims } from '@nodewright/core/kube';
import {
  ConditionTypes,
  GarbageCollectionController,
  type GarbageCollectionOptions,
  lifecycleMetrics,
} from '@nodewright/core/lifecycle';
import type { ReconcileContext } from '@nodewright/core/operator';
import { ControllerEnv, reconcileContext } from '@nodewright/core/testing';

/** Karpenter's garbage-collection grace periods, which core's controller defaults to. */
export const ContractGarbageCollectionGrace: Required<Omit<GarbageCollectionOptions, 'intervalMs'>> = {
  instanceGraceMs: 30_000,
  claimGraceMs: 10_000,
};

/**
 * Core's `nodeclaim.garbagecollection` controller run against one fixture's provider, pass by
 * pass, on a clock the suite steps. Its cluster is a MemoryCluster holding only the NodeClaims a
 * test records (`track`), so the test decides which instances are accounted for: what is checked
 * is the provider's half of garbage collection (list reports instances with a launch time,
 * delete ends them, get answers NodeClaimNotFound once they are gone), which is what differs
 * between providers. The clock starts at the wall time, because launch times come from the
 * (mock) cloud.
 */
export class ContractGarbageCollector {
  readonly #env: ControllerEnv;
  readonly #controller: GarbageCollectionController;
  readonly #context: ReconcileContext;

  constructor(provider: CloudProvider) {
    this.#env = new ControllerEnv({ start: Date.now() });
    this.#controller = new GarbageCollectionController(
      {
        cluster: this.#env.cluster,
        cloudProvider: provider,
        clock: this.#env.clock,
        events: this.#env.events,
        metrics: lifecycleMetrics(this.#env.registry),
      },
      { intervalMs: 60_000, ...ContractGarbageCollectionGrace },
    );
    // A pass reads nothing from the cache; it lists the cloud and the cluster itself, so the
    // cache counts as synced.
    this.#context = reconcileContext();
  }

  /** Records a created NodeClaim as the cluster would hold it: Launched now, with its providerID. */
  async track(created: NodeClaim): Promise<void> {
    const { cluster, clock } = this.#env;
    // The NodePool it names is not in this cluster, so neither is the owner reference to it.
    const { status: _, ...object } = created;
    const { ownerReferences: __, ...metadata } = created.metadata;
    const stored = await cluster.create(NodeClaims, { ...object, metadata });
    const at = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    await cluster.patchStatus(
      NodeClaims,
      { name: stored.metadata.name ?? '' },
      {
        status: {
          ...created.status,
          conditions: [
            {
              type: ConditionTypes.Launched,
              status: 'True',
              reason: 'Launched',
              message: '',
              lastTransitionTime: at,
            },
          ],
        },
      },
    );
  }

  /** Names of the NodeClaims still recorded. */
  async claimNames(): Promise<string[]> {
    return (await this.#env.cluster.list(NodeClaims)).items.map((c) => c.metadata.name ?? '');
  }

  /**
   * Moves the clock to `ms` past the wall time now (never backwards), so everything launched
   * before this call is older than `ms`.
   */
  advancePast(ms: number): void {
    const target = Date.now() + ms;
    if (target > this.#env.clock.now()) this.#env.clock.set(target);
  }

  /** One garbage-collection pass, as the manager runs it every interval. */
  async pass(): Promise<void> {
    await this.#controller.reconcile({ name: 'nodeclaim.garbagecollection' }, this.#context);
  }
}
