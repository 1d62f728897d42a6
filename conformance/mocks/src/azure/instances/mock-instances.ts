import { SKU_FACTS } from '@nodewright/azure';
import {
  type MockInstance,
  type MockInstanceSource,
  polledInstanceSource,
} from '@nodewright/conformance/harness';
import type { Timers } from '@nodewright/core/clock';
import { parseLabels, parseTaints } from '../../gcp/instances/mock-instances.js';
import type { ArmResource, ArmState } from '../arm/state.js';

/** How often the source looks at the mock's VMs: provisioning states change as operations are polled, not by events. */
export const PollMs = 100;

/** The kubelet flags a VM's custom data writes to /etc/default/kubelet, by flag name. */
export function kubeletFlagsOf(customData: string | undefined): Record<string, string> {
  const line = customData?.split('\n').find((l) => l.startsWith('KUBELET_FLAGS='));
  if (line === undefined) return {};
  const value = line.slice('KUBELET_FLAGS='.length).replace(/^'|'$/g, '').replaceAll("'\\''", "'");
  return Object.fromEntries(
    value
      .split(' ')
      .filter((f) => f.startsWith('--'))
      .map((f) => {
        const eq = f.indexOf('=');
        return eq < 0 ? [f.slice(2), ''] : [f.slice(2, eq), f.slice(eq + 1)];
      }),
  );
}

const States: Readonly<Record<string, MockInstance['state']>> = {
  Creating: 'pending',
  Succeeded: 'running',
  Deleting: 'stopping',
};

/**
 * How the kubelet harness sees one ARM VM: capacity from its size's SKU facts and OS disk,
 * labels, taints and max pods from the kubelet flags its custom data writes.
 */
export function toMockInstance(
  vm: ArmResource,
  customData: string | undefined,
  subscriptionId: string,
): MockInstance {
  const props = vm.properties as {
    hardwareProfile?: { vmSize?: string };
    priority?: string;
    provisioningState?: string;
    timeCreated?: string;
    storageProfile?: { osDisk?: { diskSizeGB?: number } };
  };
  const size = props.hardwareProfile?.vmSize ?? '';
  const facts = SKU_FACTS.find((f) => f.name.toLowerCase() === size.toLowerCase());
  if (facts === undefined) throw new Error(`azure mock: VM ${vm.name} has unknown size ${size}`);
  const resourceGroup = vm.id.split('/')[4] ?? '';
  const flags = kubeletFlagsOf(customData);
  const taints = parseTaints(flags['register-with-taints']);
  const zone = (vm as { zones?: string[] }).zones?.[0];
  return {
    providerID: `azure:///subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Compute/virtualMachines/${vm.name}`,
    nodeName: vm.name,
    instanceType: facts.name,
    zone: zone === undefined ? '0' : `${vm.location}-${zone}`,
    capacityType: props.priority === 'Spot' || props.priority === 'Low' ? 'spot' : 'on-demand',
    architecture: facts.architecture === 'Arm64' ? 'arm64' : 'amd64',
    capacity: {
      cpu: String(facts.vCPUs),
      memory: `${facts.memoryGB * 1024}Mi`,
      pods: flags['max-pods'] ?? '110',
      'ephemeral-storage': `${props.storageProfile?.osDisk?.diskSizeGB ?? 30}Gi`,
      ...(facts.gpus !== undefined ? { 'nvidia.com/gpu': String(facts.gpus.count) } : {}),
    },
    labels: parseLabels(flags['node-labels']),
    ...(taints.length > 0 ? { taints } : {}),
    state: States[props.provisioningState ?? ''] ?? 'terminated',
    launchedAt: Date.parse(props.timeCreated ?? '') || 0,
  };
}

/**
 * The ARM mock's VMs for the kubelet harness: every current one on `watch`, then each change
 * of provisioning state (polled every {@link PollMs}), and `terminated` once a VM is gone
 * (deleted or evicted).
 */
export function armMockInstanceSource(deps: {
  readonly state: ArmState;
  readonly timers: Timers;
  readonly subscriptionId: string;
}): MockInstanceSource {
  return polledInstanceSource(deps.timers, PollMs, () =>
    [...deps.state.vms.values()].map((vm) =>
      toMockInstance(vm, deps.state.customData.get(vm.name), deps.subscriptionId),
    ),
  );
}
