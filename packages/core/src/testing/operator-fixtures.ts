import { SystemClock } from '../clock/clock.js';
import { MemoryCluster } from '../kube/memory/memory-cluster.js';
import { NodeClaims, NodePools } from '../kube/resource-types.js';
import { alwaysReady } from '../nodepool/readiness/node-class-readiness.js';
import { CustomResourceDefinitions } from '../operator/crds/crd-type.js';
import type { ProviderPlugin } from '../operator/plugin/provider-plugin.js';
import { FakeCloudProvider } from './fake-cloud-provider.js';

/**
 * A MemoryCluster an Operator can start on with wall-clock time: it serves NodePools,
 * NodeClaims and CRDs, and marks every applied CRD Established, as the API server does, so
 * the operator's CRD install does not wait forever.
 */
export function clusterWithEstablishedCrds(): MemoryCluster {
  const cluster = new MemoryCluster({
    clock: new SystemClock(),
    kinds: [NodePools, NodeClaims, CustomResourceDefinitions],
  });
  cluster.watch(CustomResourceDefinitions, (event) => {
    if (event.type !== 'ADDED') return;
    void cluster.patchStatus(
      CustomResourceDefinitions,
      { name: event.object.metadata.name ?? '' },
      { status: { conditions: [{ type: 'Established', status: 'True' }] } },
    );
  });
  return cluster;
}

/** A provider plug-in named `fake`: a FakeCloudProvider on wall-clock time, no NodeClass, no controllers. */
export function fakeProviderPlugin(): ProviderPlugin {
  return {
    name: 'fake',
    kinds: [],
    settings: {},
    create: async () => ({
      cloudProvider: new FakeCloudProvider({ clock: new SystemClock() }),
      controllers: [],
      nodeClassTypes: [],
      nodeClassReadiness: alwaysReady,
    }),
  };
}
