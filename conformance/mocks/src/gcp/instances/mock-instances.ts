import {
  type MockInstance,
  type MockInstanceSource,
  polledInstanceSource,
} from '@nodewright/conformance/harness';
import type { NodeTaint } from '@nodewright/core/apis';
import type { Timers } from '@nodewright/core/clock';
import type { ComputeState, MockInstance as GceVm } from '../compute/state.js';

/** How often the source looks at the mock's VMs: GCE statuses follow the clock, not events. */
export const PollMs = 100;

const metadataOf = (vm: GceVm): Record<string, string> => {
  const items =
    (vm.resource.metadata as { items?: { key?: string; value?: string }[] } | undefined)?.items ?? [];
  return Object.fromEntries(items.map((i) => [i.key ?? '', i.value ?? '']));
};

/** `key=value:Effect,...` (the `kube-taints` metadata) as Node taints. */
export function parseTaints(text: string | undefined): NodeTaint[] {
  if (text === undefined || text === '') return [];
  return text.split(',').map((t) => {
    const [kv = '', effect = 'NoSchedule'] = t.split(':');
    const eq = kv.indexOf('=');
    return (
      eq < 0 ? { key: kv, effect } : { key: kv.slice(0, eq), value: kv.slice(eq + 1), effect }
    ) as NodeTaint;
  });
}

/** `k=v,...` (the `kube-labels` metadata) as labels. */
export function parseLabels(text: string | undefined): Record<string, string> {
  if (text === undefined || text === '') return {};
  return Object.fromEntries(
    text.split(',').map((kv) => {
      const eq = kv.indexOf('=');
      return [kv.slice(0, eq), kv.slice(eq + 1)];
    }),
  );
}

const States: Readonly<Record<string, MockInstance['state']>> = {
  PROVISIONING: 'pending',
  STAGING: 'pending',
  RUNNING: 'running',
  STOPPING: 'stopping',
};

/** How the kubelet harness sees one GCE VM: capacity from its machine type, labels and taints from its metadata. */
export function toMockInstance(vm: GceVm, state: ComputeState): MockInstance {
  const facts = state.machineTypes.find((t) => t.name === vm.machineType);
  if (facts === undefined)
    throw new Error(`gcp mock: VM ${vm.name} has unknown machine type ${vm.machineType}`);
  const meta = metadataOf(vm);
  const boot = (
    vm.resource.disks as { boot?: boolean; initializeParams?: { diskSizeGb?: string } }[] | undefined
  )?.find((d) => d.boot);
  const gpus = facts.accelerators?.reduce((n, a) => n + a.guestAcceleratorCount, 0) ?? 0;
  const taints = [...parseTaints(meta['kube-taints']), ...parseTaints(meta['kube-startup-taints'])];
  const status = String(state.instanceResource(vm).status);
  return {
    providerID: `gce://${state.project}/${vm.zone}/${vm.name}`,
    nodeName: vm.name,
    instanceType: vm.machineType,
    zone: vm.zone,
    capacityType: vm.provisioningModel === 'SPOT' ? 'spot' : 'on-demand',
    architecture: facts.architecture === 'ARM64' ? 'arm64' : 'amd64',
    capacity: {
      cpu: String(facts.guestCpus),
      memory: `${facts.memoryMb}Mi`,
      pods: '110',
      'ephemeral-storage': `${boot?.initializeParams?.diskSizeGb ?? '100'}Gi`,
      ...(gpus > 0 ? { 'nvidia.com/gpu': String(gpus) } : {}),
    },
    labels: parseLabels(meta['kube-labels']),
    ...(taints.length > 0 ? { taints } : {}),
    state: States[status] ?? 'terminated',
    launchedAt: vm.createdAt,
  };
}

/**
 * The GCE mock's VMs for the kubelet harness: every current one on `watch`, then each change
 * of status (polled every {@link PollMs}, since statuses follow the clock), and `terminated`
 * once a VM is gone.
 */
export function gceMockInstanceSource(deps: {
  readonly state: ComputeState;
  readonly timers: Timers;
}): MockInstanceSource {
  return polledInstanceSource(deps.timers, PollMs, () =>
    deps.state.instances().map((vm) => toMockInstance(vm, deps.state)),
  );
}
