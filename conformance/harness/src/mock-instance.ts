import type { NodeTaint } from '@nodewright/core/apis';

/**
 * One instance a mock cloud has started, as the kubelet harness sees it. Every mock cloud
 * (EC2, ARM, GCE) describes its instances this way, so one harness boots them all.
 */
export interface MockInstance {
  /** As the cloud's NodeClaims spell it: `aws:///zone/i-...`, `azure:///subscriptions/...`, `gce://project/zone/name`. */
  readonly providerID: string;
  /** The Node name kubelet would register (EC2: private DNS name; Azure/GCE: the VM name). */
  readonly nodeName: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: 'spot' | 'on-demand' | 'reserved';
  readonly architecture: 'amd64' | 'arm64';
  /** Node capacity as kubelet reports it (cpu, memory, pods, ephemeral-storage, GPUs). */
  readonly capacity: Readonly<Record<string, string>>;
  /** Allocatable as kubelet reports it; defaults to capacity. */
  readonly allocatable?: Readonly<Record<string, string>>;
  /** Extra labels the launch asked kubelet to set (e.g. from user data). */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints the launch asked kubelet to register with (besides karpenter.sh/unregistered). */
  readonly taints?: readonly NodeTaint[];
  /** `running` Nodes are registered (after the boot delay); `terminated` ones removed. */
  readonly state: 'pending' | 'running' | 'stopping' | 'terminated';
  /** ms since epoch. */
  readonly launchedAt: number;
}

/** A mock cloud's instances and every change to them, in order. */
export interface MockInstanceSource {
  /**
   * Calls `listener` with every current instance, then with each instance whenever it changes
   * (created, state changed). Returns a function that stops the calls.
   */
  watch(listener: (instance: MockInstance) => void): () => void;
}
