/** `aws:///<zone>/<instance-id>`, as the AWS cloud controller manager writes node providerIDs. */
export function formatProviderID(zone: string, instanceId: string): string {
  return `aws:///${zone}/${instanceId}`;
}

/**
 * The instance id of an AWS providerID (`aws:///us-west-2a/i-0abc`, also the zone-less
 * `aws:///i-0abc` some tools write), or undefined when it is not one.
 */
export function instanceIdOf(providerID: string | undefined): string | undefined {
  if (providerID === undefined) return undefined;
  const m = /^aws:\/\/\/(?:[^/]+\/)?(i-[0-9a-zA-Z]+)$/.exec(providerID);
  return m?.[1];
}
