import type { MockInstance, MockInstanceSource } from '@nodewright/conformance/harness';
import type { InstanceListener } from '../ec2/lifecycle.js';
import type { Ec2Instance, Ec2State, InstanceStateName } from '../ec2/state.js';
import { nodeAllocatable, nodeCapacity } from './node-capacity.js';
import { kubeletRequests } from './user-data.js';

/** Tags that become Node labels on EC2 nodes (kubelet gets them from user data in Karpenter). */
const LABEL_TAGS = ['karpenter.sh/nodepool', 'karpenter.k8s.aws/ec2nodeclass', 'karpenter.sh/nodeclaim'];

const STATES: Record<InstanceStateName, MockInstance['state']> = {
  pending: 'pending',
  running: 'running',
  stopping: 'stopping',
  stopped: 'stopping',
  'shutting-down': 'stopping',
  terminated: 'terminated',
};

/** How the kubelet harness sees one EC2 instance. */
export function toMockInstance(instance: Ec2Instance, state: Ec2State): MockInstance {
  const facts = state.instanceTypes.get(instance.instanceType);
  if (!facts) throw new Error(`aws mock: instance ${instance.id} has unknown type ${instance.instanceType}`);
  const capacity = nodeCapacity(facts, instance.rootVolumeGiB);
  const requested = kubeletRequests(instance.userData);
  const labels: Record<string, string> = {};
  for (const key of LABEL_TAGS) {
    const v = instance.tags.get(key);
    if (v !== undefined && key !== 'karpenter.sh/nodeclaim') labels[key] = v;
  }
  Object.assign(labels, requested.labels);
  return {
    providerID: `aws:///${instance.zone}/${instance.id}`,
    nodeName: instance.privateDnsName,
    instanceType: instance.instanceType,
    zone: instance.zone,
    capacityType: instance.capacityReservationId ? 'reserved' : instance.lifecycle,
    architecture: instance.architecture === 'arm64' ? 'arm64' : 'amd64',
    capacity,
    allocatable: nodeAllocatable(facts, capacity),
    labels,
    ...(requested.taints.length > 0 ? { taints: requested.taints } : {}),
    state: STATES[instance.state],
    launchedAt: instance.launchTime,
  };
}

/**
 * The EC2 mock's instances for the kubelet harness: every current one on `watch`, then each
 * creation and state change in the order EC2 made them. Changes that do not move the harness
 * state (shutting-down after stopping) are still delivered; the harness ignores repeats.
 */
export class Ec2MockInstanceSource implements MockInstanceSource {
  readonly #state: Ec2State;
  readonly #onChange: (listener: InstanceListener) => () => void;

  constructor(deps: {
    readonly state: Ec2State;
    readonly onChange: (listener: InstanceListener) => () => void;
  }) {
    this.#state = deps.state;
    this.#onChange = deps.onChange;
  }

  watch(listener: (instance: MockInstance) => void): () => void {
    const stop = this.#onChange((i) => listener(toMockInstance(i, this.#state)));
    for (const instance of [...this.#state.instances.values()])
      listener(toMockInstance(instance, this.#state));
    return stop;
  }
}
