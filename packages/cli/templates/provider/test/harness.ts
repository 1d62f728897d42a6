import { randomBytes } from 'node:crypto';
import { type ProviderContractHarness, RecordingTimers } from '@nodewright/conformance';
import { CapacityTypes, Labels } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { formatTime, MemoryCluster } from '@nodewright/core/kube';
import { aNodePool } from '@nodewright/core/testing';
import {
  NodeClassApiVersion,
  NodeClasses,
  NodeClassGroup,
  NodeClassKindName,
} from '../src/apis/nodeclass.js';
import { CloudClient } from '../src/cloud/cloud-client.js';
import { Provider } from '../src/cloudprovider/cloud-provider.js';
import { NodeClassStatusController } from '../src/controllers/nodeclass-status.js';
import { MockCloud } from './mock-cloud.js';

/** Short waits: the suite checks the decided waits grow, not how long they are. */
const FastRetry = { attempts: 6, baseMs: 5, maxMs: 100 } as const;

/**
 * The provider-contract harness: each test gets a fresh mock cloud, an in-memory cluster
 * holding a Ready NodeClass, and the provider wired to both. The faults are the mock's
 * switches; the backoff's waits are recorded where the client sleeps (its injected timers).
 */
export const contractHarness: ProviderContractHarness = {
  name: 'acme (mock cloud)',
  async setup() {
    const cloud = await new MockCloud().start();
    const clock = new SystemClock();
    const cluster = new MemoryCluster({ clock, kinds: [NodeClasses] });
    const nodeClassName = 'contract';
    await cluster.create(NodeClasses, {
      apiVersion: NodeClassApiVersion,
      kind: NodeClassKindName,
      metadata: { name: nodeClassName },
      spec: { image: 'node-image-1' },
    });
    const status = new NodeClassStatusController({ cluster, clock });
    await status.reconcile({ name: nodeClassName });
    const clusterName = `contract-${randomBytes(4).toString('hex')}`;
    const timers = new RecordingTimers(new SystemTimers());
    const unavailableOfferings = new UnavailableOfferingsCache(clock);
    const provider = new Provider({
      client: new CloudClient({ endpoint: cloud.url, timers, retry: FastRetry }),
      cluster,
      clock,
      clusterName,
      unavailableOfferings,
    });
    const nodePool = aNodePool({
      metadata: { name: 'contract' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: NodeClassGroup, kind: NodeClassKindName, name: nodeClassName },
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
    });
    return {
      provider,
      unavailableOfferings,
      nodePool,
      apiCalls: () => cloud.calls(),
      retryDelays: () => timers.delays(),
      faults: {
        insufficientCapacity: (offering) => cloud.noCapacity(offering),
        throttle: (count) => cloud.throttleNext(count),
        serverErrors: (count) => cloud.failNext(count),
        async nodeClassNotReady() {
          const notReady = {
            type: 'Ready',
            status: 'False',
            reason: 'ContractFault',
            message: 'made not Ready by the provider-contract suite',
            lastTransitionTime: formatTime(clock.now()),
          };
          await cluster.patchStatus(
            NodeClasses,
            { name: nodeClassName },
            { status: { conditions: [notReady] } },
          );
        },
        async drift() {
          await cluster.patch(NodeClasses, { name: nodeClassName }, { spec: { image: 'node-image-2' } });
        },
        launchOrphan: async () => cloud.launchOrphan(clusterName),
      },
      teardown: () => cloud.stop(),
    };
  },
};
