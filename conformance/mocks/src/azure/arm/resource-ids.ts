/** The ARM id of a resource in a resource group. */
export function resourceId(
  subscriptionId: string,
  resourceGroup: string,
  provider: 'Microsoft.Compute' | 'Microsoft.Network',
  type: string,
  name: string,
): string {
  return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/${provider}/${type}/${name}`;
}

/** The last segment and resource group of an ARM id, or undefined if it is not one. */
export function parseResourceId(id: string): { resourceGroup: string; name: string } | undefined {
  const m = /^\/subscriptions\/[^/]+\/resourceGroups\/([^/]+)\/providers\/.+\/([^/]+)$/i.exec(id);
  return m === null ? undefined : { resourceGroup: m[1]!, name: m[2]! };
}
