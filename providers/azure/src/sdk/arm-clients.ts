import type { Agent } from 'node:https';
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import type { TokenCredential } from '@azure/core-auth';
import {
  createDefaultHttpClient,
  createEmptyPipeline,
  createHttpHeaders,
  createPipelineRequest,
  type Pipeline,
} from '@azure/core-rest-pipeline';
import type { RetailPricesApi } from '../pricing/provider.js';
import { type RetailPricesPage, retailPricesFilter } from '../pricing/retail-prices.js';
import { ArmRequestTimeoutMs, armDeadlinePolicy } from './arm-deadline.js';
import { armRetryPolicy } from './arm-retry.js';
import type { ComputeApi, NetworkApi } from './ports.js';

/** How the SDK clients reach ARM: endpoint, credential, TLS trust, retries, LRO polling. */
export interface ArmClientOptions {
  readonly subscriptionId: string;
  readonly credential: TokenCredential;
  /** ARM's base URL; Azure's public cloud when unset. */
  readonly endpoint?: string;
  /** The Retail Prices API's base URL (`https://prices.azure.com` by default). */
  readonly pricesEndpoint?: string;
  /** An HTTPS agent, e.g. one trusting a private CA (a mock or a proxy). */
  readonly agent?: Agent;
  /** Retries of 429 (after Retry-After) and 5xx/transport failures; 5 by default. */
  readonly maxRetries?: number;
  /** First backoff of the exponential retry; 800 ms by default (the SDK's). */
  readonly retryDelayMs?: number;
  /** Told each wait before a retry. */
  readonly onRetry?: (delayMs: number, why: string) => void;
  /** Delay between polls of a long-running operation; the SDK's default (2 s) when unset. */
  readonly pollIntervalMs?: number;
  /**
   * Deadline of each attempt of each call (ArmRequestTimeoutMs, 60 s, by default); the connect
   * deadline lives in the agent (connectDeadlineAgent).
   */
  readonly requestTimeoutMs?: number;
}

/** The SDK ports over the real @azure/arm-compute and @azure/arm-network clients. */
export interface ArmClients {
  readonly compute: ComputeApi;
  readonly network: NetworkApi;
  readonly prices: RetailPricesApi;
}

/** Builds the clients; the only module that loads the Azure SDK (imported lazily by the plug-in). */
export function armClients(options: ArmClientOptions): ArmClients {
  const retry = armRetryPolicy({
    maxRetries: options.maxRetries ?? 5,
    baseDelayMs: options.retryDelayMs ?? 800,
    maxDelayMs: (options.retryDelayMs ?? 800) * 32,
    ...(options.onRetry !== undefined ? { onRetry: options.onRetry } : {}),
  });
  const deadline = armDeadlinePolicy(options.requestTimeoutMs ?? ArmRequestTimeoutMs);
  const common = {
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    // The SDK's own retries off: one policy decides every wait (see armRetryPolicy).
    retryOptions: { maxRetries: 0 },
    additionalPolicies: [
      { policy: retry, position: 'perCall' as const },
      { policy: deadline, position: 'perRetry' as const },
    ],
    userAgentOptions: { userAgentPrefix: 'nodewright' },
  };
  const computeClient = new ComputeManagementClient(options.credential, options.subscriptionId, common);
  const networkClient = new NetworkManagementClient(options.credential, options.subscriptionId, common);
  const poll = options.pollIntervalMs === undefined ? {} : { updateIntervalInMs: options.pollIntervalMs };
  const compute: ComputeApi = {
    listResourceSkus: (location) => computeClient.resourceSkus.list({ filter: `location eq '${location}'` }),
    listCommunityGalleryImageVersions: (location, gallery, image) =>
      computeClient.communityGalleryImageVersions.list(location, gallery, image),
    createVirtualMachine: (rg, name, body) =>
      computeClient.virtualMachines.createOrUpdate(rg, name, body, poll).pollUntilDone(),
    getVirtualMachine: (rg, name) => computeClient.virtualMachines.get(rg, name),
    listVirtualMachines: (rg) => computeClient.virtualMachines.list(rg),
    deleteVirtualMachine: (rg, name) => computeClient.virtualMachines.delete(rg, name, poll).pollUntilDone(),
    deleteDisk: (rg, name) => computeClient.disks.delete(rg, name, poll).pollUntilDone(),
  };
  const network: NetworkApi = {
    createNetworkInterface: (rg, name, body) =>
      networkClient.networkInterfaces.createOrUpdate(rg, name, body, poll).pollUntilDone(),
    deleteNetworkInterface: (rg, name) =>
      networkClient.networkInterfaces.delete(rg, name, poll).pollUntilDone(),
    listNetworkInterfaces: (rg) => networkClient.networkInterfaces.list(rg),
  };
  return { compute, network, prices: retailPricesApi(options, retry, deadline) };
}

/** The Retail Prices API (anonymous, JSON) through an Azure pipeline with the same retry policy. */
function retailPricesApi(
  options: ArmClientOptions,
  retry: ReturnType<typeof armRetryPolicy>,
  deadline: ReturnType<typeof armDeadlinePolicy>,
): RetailPricesApi {
  const base = options.pricesEndpoint ?? 'https://prices.azure.com';
  const pipeline: Pipeline = createEmptyPipeline();
  pipeline.addPolicy(retry, { phase: 'Retry' });
  pipeline.addPolicy(deadline, { afterPhase: 'Retry' });
  const client = createDefaultHttpClient();
  const get = async (url: string): Promise<RetailPricesPage> => {
    const request = createPipelineRequest({
      url,
      headers: createHttpHeaders({ accept: 'application/json' }),
    });
    // createPipelineRequest does not take an agent option; the request carries it.
    if (options.agent !== undefined) request.agent = options.agent;
    const response = await pipeline.sendRequest(client, request);
    if (response.status !== 200) {
      throw new Error(
        `Retail Prices API answered ${response.status} for ${url}: ${response.bodyAsText ?? ''}`,
      );
    }
    return JSON.parse(response.bodyAsText ?? '{}') as RetailPricesPage;
  };
  return {
    firstPage: (region) =>
      get(
        `${base}/api/retail/prices?api-version=2023-01-01-preview&$filter=${encodeURIComponent(retailPricesFilter(region))}`,
      ),
    nextPage: get,
  };
}
