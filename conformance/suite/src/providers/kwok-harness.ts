import { randomBytes } from 'node:crypto';
import { Labels } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { type ClusterPort, isNotFound, type KubeObject, Nodes } from '@nodewright/core/kube';
import {
  KWOKNodeClasses,
  KWOKNodeClassGroup,
  KWOKNodeClassKind,
  KwokAnnotationValue,
  KwokCloudProvider,
  KwokNodeAnnotations,
  KwokNodeClassStatusController,
  KwokNodeLabels,
  kwokProviderID,
} from '@nodewright/kwok';
import { contractNodePool } from '../provider-contract/contract-claims.js';
import { FaultInjectingCluster } from '../provider-contract/fault-injecting-cluster.js';
import type { ProviderContractFixture, ProviderContractHarness } from '../provider-contract/harness.js';
import { RecordingTimers } from '../provider-contract/recording-timers.js';

export interface KwokHarnessOptions {
  /** Names the describe block: `kwok (memory)`, `kwok (kube-apiserver)`. */
  readonly name: string;
  /**
   * The cluster one fixture runs on, serving KWOKNodeClass: a fresh MemoryCluster, or the shared
   * real one (each fixture then works under its own cluster name, NodeClass and Node names).
   */
  readonly cluster: () => Promise<ClusterPort>;
}

/** Retry tuning for the suite: the contract checks the decided waits grow, so short ones keep it fast. */
const FastRetry = { attempts: 6, baseMs: 5, maxMs: 50 } as const;

/**
 * The KWOK provider's provider-contract harness. Its "cloud" is the cluster itself, so the
 * cloud faults are cluster faults: throttling and server errors come from a FaultInjectingCluster
 * between provider and cluster (whose call count is `apiCalls`; the waits of the provider's
 * backoff are recorded on its injected timers), insufficient capacity from the
 * provider's KwokFaults, readiness from the KWOKNodeClass status (set by the real
 * `kwoknodeclass.status` controller at setup), drift from a change of its spec, and an orphan is a
 * Node carrying the fixture's managed-by label with no NodeClaim.
 */
export function kwokHarness(options: KwokHarnessOptions): ProviderContractHarness {
  return {
    name: options.name,
    async setup(): Promise<ProviderContractFixture> {
      const base = await options.cluster();
      const cluster = new FaultInjectingCluster(base);
      const clock = new SystemClock();
      const suffix = randomBytes(4).toString('hex');
      const clusterName = `contract-${suffix}`;
      const nodeClassName = `contract-${suffix}`;
      await base.create(KWOKNodeClasses, {
        apiVersion: 'karpenter.kwok.sh/v1alpha1',
        kind: 'KWOKNodeClass',
        metadata: { name: nodeClassName },
        spec: {},
      });
      await new KwokNodeClassStatusController({ cluster: base, clock }).reconcile({ name: nodeClassName });
      const unavailableOfferings = new UnavailableOfferingsCache(clock);
      // The provider's retry sleeps on these; the NodeClass sets no registration delay, so they
      // are the only waits it asks for.
      const timers = new RecordingTimers(new SystemTimers());
      const provider = new KwokCloudProvider({
        cluster,
        clock,
        timers,
        clusterName,
        unavailableOfferings,
        retry: FastRetry,
      });
      const nodePool = contractNodePool(`contract-${suffix}`, {
        group: KWOKNodeClassGroup,
        kind: KWOKNodeClassKind,
        name: nodeClassName,
      });
      let orphans = 0;
      return {
        provider,
        unavailableOfferings,
        nodePool,
        apiCalls: () => cluster.calls(),
        retryDelays: () => timers.delays(),
        faults: {
          insufficientCapacity: (offering) => provider.faults.insufficientCapacity(offering),
          throttle: (count) => cluster.throttle(count),
          serverErrors: (count) => cluster.serverErrors(count),
          async nodeClassNotReady() {
            await base.patchStatus(
              KWOKNodeClasses,
              { name: nodeClassName },
              {
                status: {
                  conditions: [
                    {
                      type: 'Ready',
                      status: 'False',
                      reason: 'ContractFault',
                      message: 'made not Ready by the provider-contract suite',
                      lastTransitionTime: new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
                    },
                  ],
                },
              },
            );
          },
          async drift() {
            await base.patch(
              KWOKNodeClasses,
              { name: nodeClassName },
              { spec: { nodeRegistrationDelay: '0s' } },
            );
          },
          async launchOrphan() {
            const name = `${clusterName}-orphan-${++orphans}`;
            await base.create<KubeObject>(Nodes, {
              apiVersion: 'v1',
              kind: 'Node',
              metadata: {
                name,
                labels: { [KwokNodeLabels.ManagedBy]: clusterName, [Labels.Hostname]: name },
                annotations: { [KwokNodeAnnotations.Kwok]: KwokAnnotationValue },
              },
              spec: { providerID: kwokProviderID(name) },
            } as KubeObject);
            return kwokProviderID(name);
          },
        },
        async teardown() {
          provider.close();
          const { items } = await base.list(Nodes, {
            labelSelector: `${KwokNodeLabels.ManagedBy}=${clusterName}`,
          });
          for (const node of items)
            await ignoreNotFound(base.delete(Nodes, { name: node.metadata.name ?? '' }));
          await ignoreNotFound(base.delete(KWOKNodeClasses, { name: nodeClassName }));
        },
      };
    },
  };
}

async function ignoreNotFound(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
