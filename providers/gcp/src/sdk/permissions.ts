import type { BillingCatalogApi, GceComputeApi } from './compute-api.js';

/** One port method: the SDK method it calls and the IAM permissions that call needs. */
export interface MethodPermissions {
  /** `instances.insert`: the @google-cloud/compute client and method (or the REST method). */
  readonly sdkMethod: string;
  readonly permissions: readonly string[];
}

/** For each method of a port, what it calls and needs; a mapped type, so no method is missed or invented. */
export type PortPermissions<T> = { readonly [K in Exclude<keyof T, 'close'>]-?: MethodPermissions };

const InsertPermissions = [
  'compute.instances.create',
  'compute.disks.create',
  'compute.images.useReadOnly',
  'compute.subnetworks.use',
  'compute.subnetworks.useExternalIp',
  'compute.instances.setMetadata',
  'compute.instances.setLabels',
  'compute.instances.setTags',
  'compute.instances.setServiceAccount',
  'iam.serviceAccounts.actAs',
];

/**
 * The IAM permissions each SDK call of the provider needs. An insert is checked for more than
 * `compute.instances.create`: the boot and data disks it creates, the image it reads, the
 * subnetwork it attaches to, the metadata, labels and tags it sets, and the service account it
 * runs the VM as (`iam.serviceAccounts.actAs` on that account). The billing catalog needs only
 * an authenticated caller. The README's custom role lists exactly the union (a unit test checks).
 */
export const ProviderPermissions: {
  readonly compute: PortPermissions<GceComputeApi>;
  readonly billing: PortPermissions<BillingCatalogApi>;
} = {
  compute: {
    aggregatedMachineTypes: {
      sdkMethod: 'machineTypes.aggregatedListAsync',
      permissions: ['compute.machineTypes.list'],
    },
    insertInstance: {
      sdkMethod: 'instances.insert',
      permissions: InsertPermissions,
    },
    // A bulk insert creates the same resources as an insert, so it is checked for the same.
    bulkInsertInstances: { sdkMethod: 'instances.bulkInsert', permissions: InsertPermissions },
    getInstance: { sdkMethod: 'instances.get', permissions: ['compute.instances.get'] },
    listInstances: { sdkMethod: 'instances.listAsync', permissions: ['compute.instances.list'] },
    deleteInstance: { sdkMethod: 'instances.delete', permissions: ['compute.instances.delete'] },
    waitOperation: { sdkMethod: 'operations.wait', permissions: ['compute.zoneOperations.get'] },
    listOperations: { sdkMethod: 'operations.listAsync', permissions: ['compute.zoneOperations.list'] },
    getImage: { sdkMethod: 'images.get', permissions: ['compute.images.get'] },
    getImageFromFamily: { sdkMethod: 'images.getFromFamily', permissions: ['compute.images.getFromFamily'] },
  },
  billing: {
    listSkus: { sdkMethod: 'GET /v1/services/{service}/skus', permissions: [] },
  },
};

/** Every permission the provider needs, sorted. */
export function requiredPermissions(): string[] {
  const all = Object.values(ProviderPermissions).flatMap((port) =>
    Object.values(port as Record<string, MethodPermissions>).flatMap((m) => m.permissions),
  );
  return [...new Set(all)].sort();
}
