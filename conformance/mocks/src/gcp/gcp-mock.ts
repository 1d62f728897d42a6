import type { AddressInfo } from 'node:net';
import type { InstancesClient } from '@google-cloud/compute';
import type { MockInstanceSource } from '@nodewright/conformance/harness';
import { type Clock, SystemClock, SystemTimers, type Timers } from '@nodewright/core/clock';
import { ComputeState, type GceTimings } from './compute/state.js';
import { GceFaults } from './faults/faults.js';
import { gceMockInstanceSource } from './instances/mock-instances.js';
import { SeedImages } from './seed/images.js';
import { type MachineTypeFacts, SeedZones, seedMachineTypes } from './seed/machine-types.js';
import { type BillingSku, seedSkus } from './seed/skus.js';
import { createGceServer } from './server/http.js';

export interface GcpMockOptions {
  /** The project the VMs live in; `my-project` by default. */
  readonly project?: string;
  readonly timings?: Partial<GceTimings>;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly machineTypes?: readonly MachineTypeFacts[];
  readonly skus?: readonly BillingSku[];
  /**
   * The address to listen on (default 127.0.0.1), e.g. the host's address on kind's Docker
   * network so a controller in the cluster reaches the mock; `baseUrl` names it.
   */
  readonly host?: string;
}

/**
 * The options a real @google-cloud/compute client needs to talk to the mock: the endpoint over
 * plain HTTP and an auth client that adds nothing.
 */
export type GceClientOptions = NonNullable<ConstructorParameters<typeof InstancesClient>[0]>;

/**
 * google-gax 6 sends every REST request through its auth client's `fetch` and asks it for
 * headers; this one adds none and fetches plainly. The SDK types the auth client as one of
 * google-auth-library's classes, hence the cast: the stub has the two members gax calls.
 */
function stubAuthClient(): GceClientOptions['authClient'] {
  const stub = {
    getRequestHeaders: async () => new Headers(),
    fetch: (url: string | URL, init: NonNullable<Parameters<typeof fetch>[1]>) =>
      fetch(url, {
        ...(init.method === undefined ? {} : { method: init.method }),
        ...(init.headers === undefined ? {} : { headers: init.headers }),
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      }),
  };
  return stub as unknown as GceClientOptions['authClient'];
}

/** A running Compute Engine + Cloud Billing Catalog mock. */
export interface GcpMock {
  readonly project: string;
  readonly compute: ComputeState;
  readonly faults: GceFaults;
  /** The VMs as the kubelet harness boots them into Nodes (statuses polled). */
  readonly instances: MockInstanceSource;
  /** For `new InstancesClient(mock.clientOptions)` and the other Compute clients. */
  readonly clientOptions: GceClientOptions;
  /** `http://HOST:PORT`: the billing catalog is at `${baseUrl}/v1/services/6F81-5844-456A/skus`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Starts the mock on `host` (default 127.0.0.1) at a free port, seeded with real machine types, SKUs and images. */
export async function startGcpMock(options: GcpMockOptions = {}): Promise<GcpMock> {
  const project = options.project ?? 'my-project';
  const clock = options.clock ?? new SystemClock();
  const timers = options.timers ?? new SystemTimers();
  const faults = new GceFaults({ clock });
  const compute = new ComputeState({
    project,
    clock,
    faults,
    machineTypes: options.machineTypes ?? seedMachineTypes(),
    regions: SeedZones,
    ...(options.timings === undefined ? {} : { timings: options.timings }),
  });
  for (const image of SeedImages) compute.addImage(image.project, image);
  const skus = options.skus ?? seedSkus(Object.keys(SeedZones));
  const server = createGceServer({ compute, faults, timers, skus: () => skus });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    project,
    compute,
    faults,
    instances: gceMockInstanceSource({ state: compute, timers }),
    baseUrl: `http://${host}:${port}`,
    clientOptions: {
      apiEndpoint: host,
      port,
      protocol: 'http',
      projectId: project,
      authClient: stubAuthClient(),
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
