import type { MockInstanceSource } from '@nodewright/conformance/harness';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ResourceType, UntypedObject } from '@nodewright/core/kube';
import type { NodeClassRef, Requirement } from './manifests.js';

/** A mock cloud a target runs for the length of one e2e file. */
export interface MockCloud {
  /** The instances the kubelet harness boots into Nodes. */
  readonly source: MockInstanceSource;
  /** Added to the target's `--set` settings (endpoints of the mock servers, credentials). */
  readonly settings: Readonly<Record<string, string>>;
  /** Time from an instance being seen to its Node registering. */
  readonly bootDelayMs: number;
  stop(): Promise<void>;
}

/**
 * One provider as the cluster end-to-end suite drives it. A provider author writes one of
 * these (see conformance/README.md) and calls `describeClusterE2E(target, options)`.
 */
export interface ClusterE2ETarget {
  /** Names the describe block. */
  readonly name: string;
  /** The value of `nodewright controller --provider`. */
  readonly provider: string;
  /** `--set` provider settings. */
  readonly settings?: Readonly<Record<string, string>>;
  /** The provider's NodeClass kinds; their CRDs must apply and be installed by the controller. */
  readonly nodeClassKinds: readonly KindDefinition[];
  readonly nodeClassType: ResourceType;
  /** A NodeClass of this name that turns Ready on the mock cloud (or, for kwok, at once). */
  nodeClass(name: string): UntypedObject;
  nodeClassRef(name: string): NodeClassRef;
  /**
   * NodePool requirements selecting exactly one cheap instance type, and that type's
   * allocatable CPU: the suite sizes pods at 40 % of it, so two share a node and a third
   * does not, which makes node counts predictable.
   */
  readonly singleType: {
    readonly requirements: readonly Requirement[];
    readonly allocatableMilliCpu: number;
  };
  /** For clouds behind mock servers: started before the controller, with the kubelet harness. */
  readonly mockCloud?: () => Promise<MockCloud>;
}
