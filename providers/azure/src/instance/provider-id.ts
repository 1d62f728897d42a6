/** `azure:///subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/virtualMachines/<name>`, as the Azure cloud provider of Kubernetes sets it. */
export function formatProviderID(subscriptionId: string, resourceGroup: string, name: string): string {
  return `azure:///subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Compute/virtualMachines/${name}`;
}

const ProviderID =
  /^azure:\/\/\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines\/([^/]+)$/i;

/** The subscription, resource group and VM name of a providerID; undefined for another form. */
export function parseProviderID(
  providerID: string | undefined,
): { subscriptionId: string; resourceGroup: string; name: string } | undefined {
  const m = ProviderID.exec(providerID ?? '');
  return m === null ? undefined : { subscriptionId: m[1]!, resourceGroup: m[2]!, name: m[3]! };
}
