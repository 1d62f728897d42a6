import type { Pod } from '../../apis/kubernetes/pod.js';
import type { HostPort } from '../pod/host-ports.js';
import type { Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import type { ResourceVector } from '../resources/resource-vector.js';
import type { TaintLike } from '../taints/tolerations.js';
import type { Pool } from './pools.js';

/** Where a pod can go: a NodeClaim being built in this solve, or existing capacity. */
interface TargetBase {
  /** The node's (or claim's) requirements; claims narrow as pods join. */
  requirements: Requirements;
  readonly taints: readonly TaintLike[];
  /** Hostname domain id. */
  readonly host: number;
  /** NodeClaims may need well-known labels their instance type will define. */
  readonly allowUndefined: boolean;
  readonly ports: HostPort[];
  /** Pods this solve put here, in order. */
  readonly pods: Pod[];
  /** Their requests, in the same order. */
  readonly podRequests: ResourceList[];
  /**
   * Merged requirements per (variant, option), valid until `requirements` changes; made on
   * first use, as most existing nodes of a solve are never merged with.
   */
  mergeCache: Map<number, Requirements | null> | undefined;
  /**
   * Per topology key slot: the domain id the requirements pin the target to, -1 when not pinned
   * to one (small) domain, UNKNOWN_DOMAIN until computed. Reset when `requirements` changes.
   */
  domainIds: Int32Array;
}

/** A new NodeClaim. */
export interface Claim extends TargetBase {
  readonly kind: 'claim';
  readonly id: number;
  readonly pool: Pool;
  readonly hostname: string;
  /**
   * Indices into pool.types: a superset of the types that still fit (a type is dropped once seen
   * not to fit), exact for compatibility and offerings.
   */
  candidates: Int32Array;
  size: number;
  /** The pods' requests (DaemonSet overhead lives in each type's free room). */
  readonly requests: ResourceVector;
  /** What the claim took off its NodePool's limits when accepted (empty without limits). */
  readonly charged: readonly bigint[];
}

/** A Node or in-flight NodeClaim from the input. */
export interface ExistingTarget extends TargetBase {
  readonly kind: 'existing';
  /** Index into the solver's existing list (its try order). */
  readonly index: number;
  readonly name: string;
  /** Room left: allocatable minus bound pods, DaemonSet pods still to come and this solve's pods. */
  readonly available: ResourceVector;
}

export type Target = Claim | ExistingTarget;

/** Marks a {@link TargetBase.domainIds} slot not computed yet. */
export const UNKNOWN_DOMAIN = -3;

export function emptyDomainIds(slots: number): Int32Array {
  return new Int32Array(Math.max(8, slots)).fill(UNKNOWN_DOMAIN);
}

/**
 * `domainIds` of a target none has been computed for yet: grown into its own array on first
 * use. Having no slots, it cannot be written to; a solve over hundreds of existing nodes
 * otherwise allocated an array for each, most never read.
 */
export const NoDomainIds: Int32Array = new Int32Array(0);
