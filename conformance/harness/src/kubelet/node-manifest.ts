import { Labels, Taints } from '@nodewright/core/apis';
import type { MockInstance } from '../mock-instance.js';

/**
 * The annotation kwok's node controller selects on (the cluster launcher starts kwok with
 * `--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake`): with it, kwok keeps the
 * Node Ready and runs the pods bound to it, as a kubelet would.
 */
export const KWOK_MANAGED_ANNOTATION = { key: 'kwok.x-k8s.io/node', value: 'fake' } as const;

/** What kubelet registers for one instance: the Node object and, separately, its status. */
export interface NodeRegistration {
  /** apiVersion, kind, metadata and spec: what a create sends. */
  readonly node: {
    readonly apiVersion: 'v1';
    readonly kind: 'Node';
    readonly metadata: {
      readonly name: string;
      readonly labels: Record<string, string>;
      readonly annotations: Record<string, string>;
    };
    readonly spec: {
      readonly providerID: string;
      readonly taints: { key: string; value?: string; effect: string }[];
    };
  };
  /**
   * Capacity and allocatable, patched onto the status subresource after the create (an API
   * server may drop status from a create; kubelet reports it right after registering anyway).
   */
  readonly status: {
    readonly capacity: Record<string, string>;
    readonly allocatable: Record<string, string>;
    /** Conditions kubelet reports itself; absent when kwok keeps the Node's conditions. */
    readonly conditions?: Record<string, string>[];
  };
}

/**
 * The Node a kubelet on `instance` would register. Well-known labels come from the instance's
 * own facts and win over same-named launch labels, as kubelet's do; the launch's taints follow
 * karpenter.sh/unregistered (which the NodeClaim registration controller removes), duplicates
 * of it dropped.
 */
export function nodeRegistration(instance: MockInstance): NodeRegistration {
  const labels: Record<string, string> = {
    ...instance.labels,
    [Labels.Arch]: instance.architecture,
    [Labels.OS]: 'linux',
    [Labels.Hostname]: instance.nodeName,
    [Labels.InstanceType]: instance.instanceType,
    [Labels.Zone]: instance.zone,
    [Labels.CapacityType]: instance.capacityType,
  };
  const unregistered = { key: Taints.Unregistered.key, effect: Taints.Unregistered.effect };
  const taints = [
    unregistered,
    ...(instance.taints ?? [])
      .filter((t) => !(t.key === unregistered.key && t.effect === unregistered.effect))
      .map((t) => ({ key: t.key, effect: t.effect, ...(t.value === undefined ? {} : { value: t.value }) })),
  ];
  return {
    node: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: instance.nodeName,
        labels,
        annotations: { [KWOK_MANAGED_ANNOTATION.key]: KWOK_MANAGED_ANNOTATION.value },
      },
      spec: { providerID: instance.providerID, taints },
    },
    status: {
      capacity: { ...instance.capacity },
      allocatable: { ...(instance.allocatable ?? instance.capacity) },
    },
  };
}
