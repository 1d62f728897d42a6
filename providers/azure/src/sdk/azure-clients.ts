import { readFile } from 'node:fs/promises';
import type { AccessToken, TokenCredential } from '@azure/core-auth';
import { DefaultAzureCredential } from '@azure/identity';
import type { AzureSettings } from '../provider/settings.js';
import { type ArmClients, armClients } from './arm-clients.js';
import { ArmConnectTimeoutMs, connectDeadlineAgent } from './arm-deadline.js';

/**
 * The credential the settings choose: a fixed token for mocks, else DefaultAzureCredential,
 * which uses workload identity when the pod has its federated token (AKS's way), then managed
 * identity; `clientId`/`tenantId` pick the identity.
 */
export function azureCredential(settings: AzureSettings): TokenCredential {
  const token = settings.staticAccessToken;
  if (token !== undefined) {
    return {
      getToken: async (): Promise<AccessToken> => ({ token, expiresOnTimestamp: Date.now() + 3_600_000 }),
    };
  }
  return new DefaultAzureCredential({
    ...(settings.clientId !== undefined
      ? { managedIdentityClientId: settings.clientId, workloadIdentityClientId: settings.clientId }
      : {}),
    ...(settings.tenantId !== undefined ? { tenantId: settings.tenantId } : {}),
  });
}

/** The SDK clients for the settings (the plug-in's default; tests build `armClients` directly). */
export async function azureClients(
  settings: AzureSettings,
  extra: { onRetry?: (delayMs: number, why: string) => void } = {},
): Promise<ArmClients & { destroy(): void }> {
  const agent = connectDeadlineAgent(settings.connectTimeoutMs ?? ArmConnectTimeoutMs, {
    keepAlive: true,
    ...(settings.caFile === undefined ? {} : { ca: await readFile(settings.caFile, 'utf8') }),
  });
  const clients = armClients({
    subscriptionId: settings.subscriptionId,
    credential: azureCredential(settings),
    ...(settings.armEndpoint !== undefined ? { endpoint: settings.armEndpoint } : {}),
    ...(settings.pricesEndpoint !== undefined ? { pricesEndpoint: settings.pricesEndpoint } : {}),
    agent,
    ...(settings.pollIntervalMs !== undefined ? { pollIntervalMs: settings.pollIntervalMs } : {}),
    ...(settings.retryDelayMs !== undefined ? { retryDelayMs: settings.retryDelayMs } : {}),
    ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
    ...(extra.onRetry !== undefined ? { onRetry: extra.onRetry } : {}),
  });
  return { ...clients, destroy: () => agent.destroy() };
}
