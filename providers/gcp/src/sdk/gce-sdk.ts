import type { GceMachineTypeRecord } from '../instancetype/machine-types.js';
import type { BillingSku } from '../pricing/skus.js';
import {
  type BillingCatalogApi,
  GceApiError,
  type GceComputeApi,
  type GceImageRecord,
  type GceInstanceRecord,
  type GceOperation,
} from './compute-api.js';

/** Where the Compute clients connect and how they authenticate. */
export interface GceSdkOptions {
  readonly project: string;
  /** `http://127.0.0.1:8080` for a mock or proxy; unset = Compute Engine itself. */
  readonly endpoint?: string | undefined;
  /** The billing catalog's base URL; unset = `endpoint`, else cloudbilling.googleapis.com. */
  readonly billingEndpoint?: string | undefined;
  /** Send no credentials (a mock); unset = google-auth-library's application default credentials. */
  readonly anonymous?: boolean | undefined;
  /** Deadline of each Compute Engine and billing catalog call; GceRequestTimeoutMs (60 s) by default. */
  readonly requestTimeoutMs?: number | undefined;
}

/**
 * How long a call may go without an answer before it fails with DEADLINE_EXCEEDED (gax's
 * default is 600 s): a call Compute Engine never answers must not hold a launch, and the
 * worker running it, for ten minutes. AWS's request deadline, for the same reason. Opening a
 * connection is bounded by fetch's own 10 s connect timeout (undici's, used by gax's REST
 * transport and by google-auth-library alike).
 */
export const GceRequestTimeoutMs = 60_000;

/**
 * zoneOperations.wait answers when the operation is done or after up to 2 minutes: its
 * deadline is that hold plus the request deadline.
 */
const OperationWaitHoldMs = 120_000;

/** What google-gax's REST errors carry besides the message. */
interface GaxRestError {
  readonly httpStatusCode?: number;
  readonly code?: number | string;
  readonly reason?: string;
  readonly errors?: readonly { readonly reason?: string }[];
  readonly message?: string;
}

/** Normalizes an SDK error reply into a GceApiError; other errors pass through. */
export function toGceApiError(err: unknown): unknown {
  if (err === null || typeof err !== 'object') return err;
  const e = err as GaxRestError;
  const status = e.httpStatusCode;
  if (typeof status !== 'number') return err;
  const reason =
    e.errors?.[0]?.reason ??
    e.reason ??
    (/rate limit/i.test(e.message ?? '') ? 'rateLimitExceeded' : undefined);
  return new GceApiError(status, reason, e.message ?? `HTTP ${status}`);
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toGceApiError(err);
  }
}

/**
 * An auth client that adds nothing and fetches plainly: what gax needs to talk to a mock. Only
 * the standard fields of gax's request init are passed on (it carries gaxios options too).
 */
function anonymousAuthClient() {
  return {
    getRequestHeaders: async () => new Headers(),
    fetch: (url: string | URL, init: RequestInit) =>
      fetch(url, {
        ...(init.method === undefined ? {} : { method: init.method }),
        ...(init.headers === undefined ? {} : { headers: init.headers }),
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      }),
  };
}

/**
 * The real @google-cloud/compute clients (REST transport) behind the port. The SDK is imported
 * here, when the provider runs, never when the package is imported.
 */
export async function gceSdk(
  options: GceSdkOptions,
): Promise<{ compute: GceComputeApi; billing: BillingCatalogApi }> {
  const { InstancesClient, MachineTypesClient, ZoneOperationsClient, ImagesClient } = await import(
    '@google-cloud/compute'
  );
  const url = options.endpoint === undefined ? undefined : new URL(options.endpoint);
  const clientOptions = {
    projectId: options.project,
    fallback: true,
    ...(url === undefined
      ? {}
      : {
          apiEndpoint: url.hostname,
          port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)),
          protocol: url.protocol.replace(':', ''),
        }),
    // The SDK types its auth client as google-auth-library's; the stub has the members gax calls.
    ...(options.anonymous ? { authClient: anonymousAuthClient() as never } : {}),
  };
  const instances = new InstancesClient(clientOptions);
  const machineTypes = new MachineTypesClient(clientOptions);
  const operations = new ZoneOperationsClient(clientOptions);
  const images = new ImagesClient(clientOptions);
  const project = options.project;
  const timeoutMs = options.requestTimeoutMs ?? GceRequestTimeoutMs;
  const deadline = { timeout: timeoutMs };
  const compute: GceComputeApi = {
    async *aggregatedMachineTypes(): AsyncIterable<GceMachineTypeRecord> {
      try {
        for await (const [, scoped] of machineTypes.aggregatedListAsync(
          { project, maxResults: 500 },
          deadline,
        )) {
          yield* (scoped.machineTypes ?? []) as GceMachineTypeRecord[];
        }
      } catch (err) {
        throw toGceApiError(err);
      }
    },
    insertInstance: (zone, instanceResource, requestId) =>
      call(async () => {
        const [op] = await instances.insert({ project, zone, requestId, instanceResource }, deadline);
        return op.latestResponse as GceOperation;
      }),
    bulkInsertInstances: (zone, bulkInsertInstanceResourceResource, requestId) =>
      call(async () => {
        const [op] = await instances.bulkInsert(
          { project, zone, requestId, bulkInsertInstanceResourceResource },
          deadline,
        );
        return op.latestResponse as GceOperation;
      }),
    getInstance: (zone, instance) =>
      call(async () => (await instances.get({ project, zone, instance }, deadline))[0] as GceInstanceRecord),
    listInstances: (zone, filter) =>
      call(async () => {
        const out: GceInstanceRecord[] = [];
        for await (const i of instances.listAsync({ project, zone, filter, maxResults: 500 }, deadline))
          out.push(i as GceInstanceRecord);
        return out;
      }),
    deleteInstance: (zone, instance) =>
      call(async () => {
        const [op] = await instances.delete({ project, zone, instance }, deadline);
        return op.latestResponse as GceOperation;
      }),
    waitOperation: (zone, operation) =>
      call(
        async () =>
          (
            await operations.wait({ project, zone, operation }, { timeout: OperationWaitHoldMs + timeoutMs })
          )[0] as GceOperation,
      ),
    listOperations: (zone, filter) =>
      call(async () => {
        const out: GceOperation[] = [];
        for await (const o of operations.listAsync({ project, zone, filter, maxResults: 500 }, deadline))
          out.push(o as GceOperation);
        return out;
      }),
    getImage: (imageProject, image) =>
      call(async () => (await images.get({ project: imageProject, image }, deadline))[0] as GceImageRecord),
    getImageFromFamily: (imageProject, family) =>
      call(
        async () =>
          (await images.getFromFamily({ project: imageProject, family }, deadline))[0] as GceImageRecord,
      ),
    close: async () => {
      await Promise.all([instances.close(), machineTypes.close(), operations.close(), images.close()]);
    },
  };
  const billingBase = options.billingEndpoint ?? options.endpoint ?? 'https://cloudbilling.googleapis.com';
  const billing: BillingCatalogApi = {
    async listSkus(serviceId, pageToken) {
      const query = new URLSearchParams({ pageSize: '5000', currencyCode: 'USD' });
      if (pageToken !== undefined) query.set('pageToken', pageToken);
      const target = `${billingBase.replace(/\/$/, '')}/v1/services/${serviceId}/skus?${query}`;
      const headers = options.anonymous
        ? new Headers()
        : new Headers(await instances.auth.getRequestHeaders(target));
      const res = await fetch(target, { headers, signal: AbortSignal.timeout(timeoutMs) }).catch(
        (err: unknown) => {
          if (err instanceof DOMException && err.name === 'TimeoutError') {
            throw new Error(
              `cloudbilling services.skus.list: no answer within ${timeoutMs / 1000} s (the request deadline)`,
            );
          }
          throw err;
        },
      );
      const body = (await res.json()) as {
        skus?: BillingSku[];
        nextPageToken?: string;
        error?: { message?: string; errors?: { reason?: string }[] };
      };
      if (!res.ok) {
        throw new GceApiError(
          res.status,
          body.error?.errors?.[0]?.reason,
          body.error?.message ?? `HTTP ${res.status}`,
        );
      }
      return {
        skus: body.skus ?? [],
        ...(body.nextPageToken ? { nextPageToken: body.nextPageToken } : {}),
      };
    },
  };
  return { compute, billing };
}
