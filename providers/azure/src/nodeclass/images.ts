import type { AKSNodeClass, ImageFamily } from '../apis/index.js';

/** AKS's public community galleries of node images (their public names, as ARM addresses them). */
export const NodeImageGalleries = {
  Ubuntu: 'AKSUbuntu-38d80f77-467a-481f-a8d4-09b6d4220bd2',
  AzureLinux: 'AKSAzureLinux-f7c7cda5-1c9a-4bdc-a222-9614c968580b',
} as const;

/** One image definition of a community gallery: its versions are the node image releases. */
export interface ImageDefinition {
  /** The gallery's public name (`AKSUbuntu-…`). */
  readonly gallery: string;
  /** The image definition's name (`2204gen2containerd`). */
  readonly image: string;
}

type Arch = 'amd64' | 'arm64';
type ConcreteFamily = Exclude<ImageFamily, 'Ubuntu'>;

const ubuntu = (image: string): ImageDefinition => ({ gallery: NodeImageGalleries.Ubuntu, image });
const azureLinux = (image: string): ImageDefinition => ({ gallery: NodeImageGalleries.AzureLinux, image });

/** Gallery image definitions (Hyper-V generation 2) per family and architecture, as AKS publishes them. */
export const NodeImageDefinitions: Readonly<Record<ConcreteFamily, Readonly<Record<Arch, ImageDefinition>>>> =
  {
    Ubuntu2204: { amd64: ubuntu('2204gen2containerd'), arm64: ubuntu('2204gen2arm64containerd') },
    Ubuntu2404: { amd64: ubuntu('2404gen2containerd'), arm64: ubuntu('2404gen2arm64containerd') },
    AzureLinux: { amd64: azureLinux('V2gen2'), arm64: azureLinux('V2gen2arm64') },
  };

/** One resolved node image and the sizes it suits, as AKSNodeClass status lists it. */
export interface ResolvedImage {
  readonly id: string;
  readonly requirements: { key: string; operator: 'In'; values: string[] }[];
}

/** `Ubuntu` is the Ubuntu release AKS defaults to: 22.04 (24.04 once chosen explicitly). */
export function concreteFamily(family: ImageFamily): ConcreteFamily {
  return family === 'Ubuntu' ? 'Ubuntu2204' : family;
}

/** The image definitions a NodeClass launches from: one per architecture. */
export function imageDefinitionsOf(
  nodeClass: Pick<AKSNodeClass, 'spec'>,
): { arch: Arch; definition: ImageDefinition }[] {
  const byArch = NodeImageDefinitions[concreteFamily(nodeClass.spec.imageFamily)];
  return (['amd64', 'arm64'] as const).map((arch) => ({ arch, definition: byArch[arch] }));
}

/** The image ID a VM's `storageProfile.imageReference.communityGalleryImageId` takes. */
export function imageVersionId(definition: ImageDefinition, version: string): string {
  return `/CommunityGalleries/${definition.gallery}/images/${definition.image}/versions/${version}`;
}

/** The image for one architecture, as status.images records it. */
export function resolvedImage(arch: Arch, definition: ImageDefinition, version: string): ResolvedImage {
  return {
    id: imageVersionId(definition, version),
    requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: [arch] }],
  };
}

/** A published version of an image definition, as the gallery lists it. */
export interface ImageVersionInfo {
  readonly name?: string;
  readonly publishedDate?: Date;
  readonly endOfLifeDate?: Date;
  readonly excludeFromLatest?: boolean;
}

/**
 * The version a VM asking for the definition's "latest" gets, as AKS node auto-provisioning
 * picks it: the most recently published one, leaving out versions excluded from latest and
 * those past their end of life at `nowMs`. Ties go to the higher version name. Undefined when
 * no version qualifies.
 */
export function latestImageVersion(versions: readonly ImageVersionInfo[], nowMs: number): string | undefined {
  let best: ImageVersionInfo | undefined;
  for (const v of versions) {
    if (v.name === undefined || v.excludeFromLatest === true) continue;
    if (v.endOfLifeDate !== undefined && v.endOfLifeDate.getTime() <= nowMs) continue;
    if (best === undefined || newer(v, best)) best = v;
  }
  return best?.name;
}

function newer(a: ImageVersionInfo, b: ImageVersionInfo): boolean {
  const at = a.publishedDate?.getTime() ?? 0;
  const bt = b.publishedDate?.getTime() ?? 0;
  if (at !== bt) return at > bt;
  return (a.name ?? '').localeCompare(b.name ?? '', 'en', { numeric: true }) > 0;
}

/** The image of a status for an architecture, if resolved. */
export function imageFor(nodeClass: Pick<AKSNodeClass, 'status'>, arch: string): string | undefined {
  return nodeClass.status?.images?.find((i) =>
    i.requirements.some((r) => r.key === 'kubernetes.io/arch' && (r.values ?? []).includes(arch)),
  )?.id;
}
