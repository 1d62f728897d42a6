import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { InterruptionKind } from '../../cloudprovider/cloud-provider.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { Offering } from '../../cloudprovider/offering.js';

/** EC2's instance states, which the simulated cloud walks through. */
export type InstanceState = 'pending' | 'running' | 'shutting-down' | 'terminated';

/** A simulated instance as the cloud sees it (a snapshot; later changes are not reflected). */
export interface SimulatedInstance {
  /** `i-` and 17 hex digits, sequential per provider. */
  readonly id: string;
  /** `sim://<zone>/<id>`. */
  readonly providerID: string;
  readonly nodeClaimName: string;
  /** The claim as `create` returned it: resolved labels, providerID, capacity, allocatable. */
  readonly nodeClaim: NodeClaim;
  readonly instanceType: InstanceType;
  readonly offering: Offering;
  readonly imageID: string;
  readonly state: InstanceState;
  /** When `create` launched it (billing starts). */
  readonly launchedAt: number;
  /** When it left `pending` (launch latency after `launchedAt`). */
  readonly runningAt?: number;
  /** When termination began (delete, or an interruption deadline). */
  readonly terminatingAt?: number;
  /** When it was gone (billing stops). */
  readonly terminatedAt?: number;
  /** The notice the cloud sent, when it interrupted this instance. */
  readonly interruption?: {
    readonly kind: InterruptionKind;
    readonly noticeAt: number;
    readonly deadline: number;
  };
}

/**
 * Hears about instances coming and going, as a kubelet (or a cloud-controller-manager) would:
 * the simulated provider calls `launched` once per instance when it is running (after the
 * launch latency; never for one terminated while pending) and `terminated` once when it is gone. Must not throw; failures belong to the listener.
 */
export interface InstanceLifecycleListener {
  launched(instance: SimulatedInstance): void;
  terminated(instance: SimulatedInstance): void;
}
