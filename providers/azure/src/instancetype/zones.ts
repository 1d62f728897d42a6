/** The zone label of nodes in a region without availability zones, as AKS sets it. */
export const NonZonalZone = '0';

/** `eastus` + ARM zone `2` -> `eastus-2`, the value of `topology.kubernetes.io/zone` on AKS nodes. */
export function zoneLabel(region: string, armZone: string | undefined): string {
  return armZone === undefined ? NonZonalZone : `${region}-${armZone}`;
}

/** The ARM zone of a zone label (`eastus-2` -> `2`); undefined for a non-zonal one. */
export function armZone(region: string, label: string): string | undefined {
  if (label === NonZonalZone) return undefined;
  const prefix = `${region}-`;
  if (!label.startsWith(prefix)) throw new Error(`zone ${label} is not a zone of region ${region}`);
  return label.slice(prefix.length);
}
