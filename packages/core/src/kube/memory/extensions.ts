import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import type { MemoryCluster } from './memory-cluster.js';

/** One write as admission sees it. */
export interface AdmissionRequest {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly type: ResourceType;
  readonly subresource?: 'status';
  /**
   * The object about to be stored (after server defaulting); a hook may change it, as a
   * mutating webhook would, by setting its top-level members and metadata's (deeper parts an
   * update left alone are the stored version's, frozen). For DELETE, the stored object being
   * deleted (frozen).
   */
  readonly object: KubeObject;
  /** For UPDATE, the stored version being replaced (frozen). */
  readonly oldObject?: KubeObject;
}

/**
 * Admission control: runs synchronously inside every write and rejects it by throwing (a
 * KubeError such as InvalidError, to look like CRD validation or a webhook), or defaults
 * fields by mutating `request.object`.
 */
export type AdmissionHook = (request: AdmissionRequest) => void;

/**
 * A control-plane component emulated next to the store (a scheduler binding pods, a
 * Deployment controller, a kubelet...). It talks to the cluster through its ClusterPort,
 * usually reacting to watch events, and returns a function that stops it.
 */
export interface MemoryClusterPlugin {
  readonly name: string;
  start(cluster: MemoryCluster): () => void;
}
