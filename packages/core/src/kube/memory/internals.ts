import type { Clock } from '../../clock/clock.js';
import type { KubeObject, ObjectKey } from '../object.js';
import type { DeleteOptions, DeleteResult } from '../port.js';
import type { ResourceType } from '../resource-type.js';
import type { BudgetSelections } from './budget-selections.js';
import type { ServedKinds } from './kinds.js';
import type { ObjectStore } from './object-store.js';
import type { PodBudgetFacts } from './pod-budget-facts.js';

/**
 * What the emulated control-plane loops (garbage collector, namespace lifecycle, eviction)
 * need from the cluster: read access to storage, and writes that go through exactly the same
 * paths as API calls (so finalizers, preconditions and events behave identically).
 */
export interface ClusterInternals {
  readonly store: ObjectStore;
  readonly kinds: ServedKinds;
  readonly clock: Clock;
  /** What budget accounting reads of each stored pod, kept per stored version. */
  readonly podFacts: PodBudgetFacts;
  /** Each budget selector's pods and counts, kept current from the store's changes. */
  readonly budgetSelections: BudgetSelections;
  /** An update through the API path; the object's resourceVersion is the precondition. */
  update(
    type: ResourceType,
    object: KubeObject,
    options: { subresource?: 'status'; fieldManager: string },
  ): KubeObject;
  /** A delete through the API path. */
  delete(type: ResourceType, key: ObjectKey, options?: DeleteOptions): DeleteResult<KubeObject>;
}

/** The field manager the emulated kube-controller-manager writes as. */
export const CONTROLLER_MANAGER = 'kube-controller-manager';
