import type { GCENodeClass } from '../apis/index.js';
import { DefaultBootDiskGiB } from '../instancetype/capacity.js';
import type { GceInstanceResource } from '../sdk/compute-api.js';

/** What one insert launches. */
export interface InstanceSpec {
  readonly name: string;
  readonly zone: string;
  readonly machineType: string;
  readonly capacityType: 'spot' | 'on-demand';
  /** The boot image, `projects/<p>/global/images/<name>` or `.../images/family/<f>`. */
  readonly image: string;
  readonly hasGpu: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly metadata: readonly { key: string; value: string }[];
  /** Network or subnetwork from the settings, used when the NodeClass names none. */
  readonly defaultNetwork?: string | undefined;
}

const diskType = (zone: string, category: string) => `zones/${zone}/diskTypes/${category}`;

/**
 * The instances.insert body: the machine type in the zone, the NodeClass's disks (a 100 GiB
 * pd-balanced boot disk when it lists none) with the image on the boot disk, its network, tags,
 * service account and shielded VM settings, labels and metadata. Spot is provisioningModel SPOT
 * with instanceTerminationAction DELETE (a preempted node is gone, not stopped); GPU machines and
 * spot VMs cannot live-migrate, so they terminate on host maintenance.
 */
export function instanceResource(spec: InstanceSpec, nodeClass: GCENodeClass): GceInstanceResource {
  const s = nodeClass.spec;
  const disks = (
    s.disks ?? [{ category: 'pd-balanced' as const, sizeGiB: DefaultBootDiskGiB, boot: true }]
  ).map((d) =>
    d.category === 'local-ssd'
      ? {
          type: 'SCRATCH',
          autoDelete: true,
          interface: 'NVME',
          initializeParams: { diskType: diskType(spec.zone, d.category) },
        }
      : {
          boot: d.boot === true,
          autoDelete: true,
          initializeParams: {
            diskSizeGb: String(d.sizeGiB),
            diskType: diskType(spec.zone, d.category),
            ...(d.boot === true ? { sourceImage: spec.image, labels: spec.labels } : {}),
          },
        },
  );
  const net = s.networkConfig;
  const subnetwork = net?.subnetwork ?? (net?.network === undefined ? spec.defaultNetwork : undefined);
  const spot = spec.capacityType === 'spot';
  return {
    name: spec.name,
    machineType: `zones/${spec.zone}/machineTypes/${spec.machineType}`,
    labels: spec.labels,
    metadata: { items: spec.metadata },
    disks,
    networkInterfaces: [
      {
        ...(net?.network === undefined ? {} : { network: net.network }),
        ...(subnetwork === undefined ? {} : { subnetwork }),
        ...(net?.enableExternalIPAccess === true
          ? { accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }] }
          : {}),
      },
    ],
    ...(net?.networkTags === undefined ? {} : { tags: { items: net.networkTags } }),
    ...(s.serviceAccount === undefined
      ? {}
      : {
          serviceAccounts: [
            { email: s.serviceAccount, scopes: ['https://www.googleapis.com/auth/cloud-platform'] },
          ],
        }),
    scheduling: spot
      ? {
          provisioningModel: 'SPOT',
          instanceTerminationAction: 'DELETE',
          automaticRestart: false,
          onHostMaintenance: 'TERMINATE',
        }
      : {
          provisioningModel: 'STANDARD',
          automaticRestart: true,
          onHostMaintenance: spec.hasGpu ? 'TERMINATE' : 'MIGRATE',
        },
    ...(s.shieldedInstanceConfig === undefined ? {} : { shieldedInstanceConfig: s.shieldedInstanceConfig }),
  };
}
