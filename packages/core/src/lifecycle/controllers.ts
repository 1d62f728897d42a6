import type { ResourceType } from '../kube/resource-type.js';
import type { Controller } from '../operator/runtime/controller.js';
import type { LifecycleDependencies } from './dependencies.js';
import {
  NodeClaimDisruptionController,
  type NodeClaimDisruptionOptions,
} from './drift/nodeclaim-disruption-controller.js';
import { ExpirationController } from './expiration-controller.js';
import {
  GarbageCollectionController,
  type GarbageCollectionOptions,
} from './garbage-collection-controller.js';
import { interruptionController } from './interruption/interruption-controller.js';
import { alwaysReady, type NodeClassReadinessCheck } from './node-class-readiness.js';
import { NodeTerminationController } from './node-termination-controller.js';
import {
  NodeClaimLifecycleController,
  type NodeClaimLifecycleOptions,
} from './nodeclaim-lifecycle-controller.js';
import { NodePoolCounterController } from './nodepool-counter-controller.js';
import { NodePoolHashController } from './nodepool-hash-controller.js';
import { NodePoolReadinessController } from './nodepool-readiness-controller.js';

/** Options of the lifecycle controllers as a whole. */
export interface LifecycleOptions {
  readonly lifecycle?: NodeClaimLifecycleOptions;
  readonly garbageCollection?: GarbageCollectionOptions;
  /** `nodeclaim.disruption`: how often provider drift is re-checked, retry backoff. */
  readonly drift?: NodeClaimDisruptionOptions;
  /** How NodeClass readiness is read; default: every NodeClass is ready. */
  readonly nodeClassReadiness?: NodeClassReadinessCheck;
  /** NodeClass kinds to watch for readiness changes. */
  readonly nodeClassTypes?: readonly ResourceType[];
}

/**
 * Every controller of this module, wired in one place: `nodeclaim.lifecycle`,
 * `node.termination`, `nodeclaim.expiration`, `nodeclaim.disruption` (the Drifted condition),
 * `nodeclaim.garbagecollection`, `nodepool.hash`,
 * `nodepool.counter`, `nodepool.readiness`, and `nodeclaim.interruption` when the cloud provider
 * has an interruption source. Register them on a Manager:
 * `manager.register(...lifecycleControllers(deps))`.
 */
export function lifecycleControllers(
  deps: LifecycleDependencies,
  options: LifecycleOptions = {},
): Controller[] {
  return [
    new NodeClaimLifecycleController(deps, options.lifecycle),
    new NodeTerminationController(deps),
    new ExpirationController(deps),
    new NodeClaimDisruptionController(deps, options.drift),
    new GarbageCollectionController(deps, options.garbageCollection),
    new NodePoolHashController(deps),
    new NodePoolCounterController(deps),
    new NodePoolReadinessController({
      cluster: deps.cluster,
      clock: deps.clock,
      nodeClassReadiness: options.nodeClassReadiness ?? alwaysReady,
      ...(options.nodeClassTypes === undefined ? {} : { nodeClassTypes: options.nodeClassTypes }),
    }),
    ...(deps.cloudProvider.interruptions === undefined ? [] : [interruptionController(deps)]),
  ];
}
