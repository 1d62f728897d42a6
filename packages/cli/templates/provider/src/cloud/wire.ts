import type { CatalogInstanceType } from '@nodewright/core/apis';
import { ProviderName } from '../provider-name.js';

// The wire protocol of the stand-in cloud: a small JSON-over-HTTP API that the client in
// cloud-client.ts speaks and test/mock-cloud.ts serves. Replace both with your cloud's real API
// (its SDK as the client, a mock speaking its real wire protocol in the tests).

/** `POST /v1/instances`: what to launch, and for whom. */
export interface LaunchRequest {
  /** Idempotency token of the launch: the NodeClaim name. */
  readonly clientToken: string;
  /** The cluster that launches it (the ownership tag `list` filters on). */
  readonly cluster: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly image: string;
  /** The NodeClass hash at launch, for drift. */
  readonly nodeClassHash: string;
  /** The NodeClaim's labels and name, so `list` can describe an instance without its claim. */
  readonly tags: Readonly<Record<string, string>>;
}

/** One instance as the cloud reports it: what was asked for, and its state. */
export interface WireInstance extends LaunchRequest {
  /** The cloud's own id; the providerID is `acme://<zone>/<id>`. */
  readonly id: string;
  readonly state: 'running' | 'terminated';
  /** RFC 3339. */
  readonly launchTime: string;
}

/** `GET /v1/instance-types`: the types with their offerings, in the InstanceTypeCatalog shape. */
export interface InstanceTypesResponse {
  readonly instanceTypes: readonly CatalogInstanceType[];
}

/** `GET /v1/instances?cluster=NAME`. */
export interface InstancesResponse {
  readonly instances: readonly WireInstance[];
}

/** The body of every error answer. */
export interface WireError {
  /** `InsufficientCapacity` (409), `NotFound` (404), `Throttled` (429), `InternalError` (500). */
  readonly code: string;
  readonly message: string;
}

/** The providerID of an instance: `acme://<zone>/<id>`. */
export function providerIDOf(instance: Pick<WireInstance, 'zone' | 'id'>): string {
  return `${ProviderName}://${instance.zone}/${instance.id}`;
}

/** The instance id in a providerID this provider wrote, else undefined. */
export function instanceIDOf(providerID: string): string | undefined {
  const prefix = `${ProviderName}://`;
  if (!providerID.startsWith(prefix)) return undefined;
  const match = /^[^/]+\/([A-Za-z0-9-]+)$/.exec(providerID.slice(prefix.length));
  return match?.[1];
}
