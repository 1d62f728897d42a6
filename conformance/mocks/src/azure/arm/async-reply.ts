import type { ArmContext } from './context.js';

/**
 * The headers of an accepted long-running request: `Azure-AsyncOperation` (which the SDK's
 * poller follows) and `Location`, both on the mock's origin.
 */
export function asyncHeaders(
  ctx: ArmContext,
  provider: 'Microsoft.Compute' | 'Microsoft.Network',
  operationId: string,
  apiVersion: string,
): Record<string, string> {
  const url = `${ctx.origin}/subscriptions/${ctx.subscriptionId}/providers/${provider}/locations/${ctx.location}/operations/${operationId}?api-version=${apiVersion}`;
  return { 'azure-asyncoperation': url, location: `${url}&monitor=true` };
}
