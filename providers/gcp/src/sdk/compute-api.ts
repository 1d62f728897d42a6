import type { GceMachineTypeRecord } from '../instancetype/machine-types.js';
import type { BillingSku } from '../pricing/skus.js';

/** A zone operation (the fields read here). */
export interface GceOperation {
  readonly name?: string | null;
  readonly status?: string | null;
  readonly operationType?: string | null;
  readonly targetLink?: string | null;
  readonly user?: string | null;
  readonly insertTime?: string | null;
  readonly error?: {
    readonly errors?: readonly { readonly code?: string | null; readonly message?: string | null }[] | null;
  } | null;
}

/** An instance as get and list return it (the fields read here). */
export interface GceInstanceRecord {
  readonly id?: string | null;
  readonly name?: string | null;
  readonly zone?: string | null;
  readonly machineType?: string | null;
  readonly status?: string | null;
  readonly creationTimestamp?: string | null;
  readonly labels?: Readonly<Record<string, string>> | null;
  readonly scheduling?: { readonly provisioningModel?: string | null } | null;
  readonly disks?: readonly { readonly boot?: boolean | null; readonly source?: string | null }[] | null;
  readonly metadata?: {
    readonly items?: readonly { key?: string | null; value?: string | null }[] | null;
  } | null;
  readonly networkInterfaces?: readonly { readonly networkIP?: string | null }[] | null;
}

/** An image (the fields read here). */
export interface GceImageRecord {
  readonly name?: string | null;
  readonly selfLink?: string | null;
  readonly family?: string | null;
  readonly architecture?: string | null;
  readonly creationTimestamp?: string | null;
  readonly deprecated?: { readonly state?: string | null } | null;
}

/** The body of instances.insert (Compute Engine's Instance resource). */
export type GceInstanceResource = Record<string, unknown>;

/**
 * The Compute Engine methods the provider calls, one per SDK method (see sdk/permissions.ts for
 * the IAM permission each needs). Implementations throw {@link GceApiError} for an error reply.
 */
export interface GceComputeApi {
  /** machineTypes.aggregatedList, every page, flattened. */
  aggregatedMachineTypes(): AsyncIterable<GceMachineTypeRecord>;
  /** instances.insert; returns the zone operation as first answered. */
  insertInstance(zone: string, instance: GceInstanceResource, requestId: string): Promise<GceOperation>;
  /**
   * instances.bulkInsert (zonal) with a BulkInsertInstanceResource body; returns the zone
   * operation as first answered. The VMs it made are read back by name (the operation names none).
   */
  bulkInsertInstances(zone: string, body: GceInstanceResource, requestId: string): Promise<GceOperation>;
  /** instances.get. */
  getInstance(zone: string, name: string): Promise<GceInstanceRecord>;
  /** instances.list with a filter, every page. */
  listInstances(zone: string, filter: string): Promise<GceInstanceRecord[]>;
  /** instances.delete; returns the zone operation. */
  deleteInstance(zone: string, name: string): Promise<GceOperation>;
  /** zoneOperations.wait: returns when DONE or after about two minutes. */
  waitOperation(zone: string, name: string): Promise<GceOperation>;
  /** zoneOperations.list with a filter, every page. */
  listOperations(zone: string, filter: string): Promise<GceOperation[]>;
  /** images.get. */
  getImage(project: string, name: string): Promise<GceImageRecord>;
  /** images.getFromFamily: the family's newest non-deprecated image. */
  getImageFromFamily(project: string, family: string): Promise<GceImageRecord>;
  close(): Promise<void>;
}

/** The Cloud Billing Catalog's SKU list for one service, one page per call. */
export interface BillingCatalogApi {
  listSkus(
    serviceId: string,
    pageToken: string | undefined,
  ): Promise<{ skus: BillingSku[]; nextPageToken?: string }>;
}

/** An error reply from a Google API: its HTTP status and the first `errors[].reason`. */
export class GceApiError extends Error {
  readonly status: number;
  readonly reason: string | undefined;

  constructor(status: number, reason: string | undefined, message: string) {
    super(message);
    this.name = 'GceApiError';
    this.status = status;
    this.reason = reason;
  }
}

/** Whether the error says the resource does not exist. */
export const isGceNotFound = (err: unknown): boolean => err instanceof GceApiError && err.status === 404;
