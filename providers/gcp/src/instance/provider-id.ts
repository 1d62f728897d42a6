/** Where an instance is: project, zone and name, as a GKE node's `spec.providerID` spells it. */
export interface GceInstanceRef {
  readonly project: string;
  readonly zone: string;
  readonly name: string;
}

/** `gce://<project>/<zone>/<name>`. */
export function formatProviderID(ref: GceInstanceRef): string {
  return `gce://${ref.project}/${ref.zone}/${ref.name}`;
}

/** The instance a providerID names, or undefined when it is not a GCE providerID. */
export function parseProviderID(providerID: string | undefined): GceInstanceRef | undefined {
  const m = /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(providerID ?? '');
  return m === null ? undefined : { project: m[1]!, zone: m[2]!, name: m[3]! };
}
