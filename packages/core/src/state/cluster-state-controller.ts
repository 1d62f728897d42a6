import type { ResourceType } from '../kube/resource-type.js';
import {
  DaemonSets,
  NodeClaims,
  NodePools,
  Nodes,
  PersistentVolumeClaims,
  PersistentVolumes,
  Pods,
  StorageClasses,
} from '../kube/resource-types.js';
import { type Controller, watchMapped } from '../operator/runtime/controller.js';
import type { ClusterState, StateKind } from './cluster-state.js';

/** The kind each state kind is watched as. */
export const StateResourceTypes: ReadonlyArray<readonly [StateKind, ResourceType]> = [
  ['Node', Nodes],
  ['NodeClaim', NodeClaims],
  ['NodePool', NodePools],
  ['Pod', Pods],
  ['DaemonSet', DaemonSets],
  ['PersistentVolumeClaim', PersistentVolumeClaims],
  ['PersistentVolume', PersistentVolumes],
  ['StorageClass', StorageClasses],
];

/**
 * `state.cluster`: feeds a ClusterState from the manager's shared informers. Its watches apply
 * every event to the state as it is delivered (before any reconcile it causes runs) and map to
 * no keys, so it never reconciles; register it before the controllers that read the state.
 */
export function clusterStateController(state: ClusterState): Controller {
  return {
    name: 'state.cluster',
    watches: StateResourceTypes.map(([kind, type]) =>
      watchMapped(type, (_object, _cache, event) => {
        state.apply(kind, event);
        return [];
      }),
    ),
    async reconcile() {
      return undefined;
    },
  };
}
