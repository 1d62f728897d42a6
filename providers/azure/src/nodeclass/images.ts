import type { AKSNodeClass, ImageFamily } from '../apis/index.js';

/** AKS's public community galleries of node images. */
const UbuntuGallery = '/CommunityGalleries/AKSUbuntu-38d80f77-467a-481f-a8d4-09b6d4220bd2/images';
const AzureLinuxGallery = '/CommunityGalleries/AKSAzureLinux-f7c7cda5-1c9a-4bdc-a222-9614c968580b/images';

/** Gallery image definitions (Hyper-V generation 2) per family and architecture. */
const Definitions: Readonly<Record<Exclude<ImageFamily, 'Ubuntu'>, { amd64: string; arm64: string }>> = {
  Ubuntu2204: {
    amd64: `${UbuntuGallery}/2204gen2containerd`,
    arm64: `${UbuntuGallery}/2204gen2arm64containerd`,
  },
  Ubuntu2404: {
    amd64: `${UbuntuGallery}/2404gen2containerd`,
    arm64: `${UbuntuGallery}/2404gen2arm64containerd`,
  },
  AzureLinux: { amd64: `${AzureLinuxGallery}/V2gen2`, arm64: `${AzureLinuxGallery}/V2gen2arm64` },
};

/** One resolved node image and the sizes it suits, as AKSNodeClass status lists it. */
export interface ResolvedImage {
  readonly id: string;
  readonly requirements: { key: string; operator: 'In'; values: string[] }[];
}

/** `Ubuntu` is the Ubuntu release AKS defaults to: 22.04 (24.04 once chosen explicitly). */
export function concreteFamily(family: ImageFamily): Exclude<ImageFamily, 'Ubuntu'> {
  return family === 'Ubuntu' ? 'Ubuntu2204' : family;
}

/**
 * The images an AKSNodeClass launches: one per architecture, at the NodeClass's pinned
 * `imageVersion` or else `defaultVersion` (the node image version the operator is set to).
 */
export function resolveImages(
  nodeClass: Pick<AKSNodeClass, 'spec'>,
  defaultVersion: string,
): ResolvedImage[] {
  const version = nodeClass.spec.imageVersion ?? defaultVersion;
  const definition = Definitions[concreteFamily(nodeClass.spec.imageFamily)];
  return (['amd64', 'arm64'] as const).map((arch) => ({
    id: `${definition[arch]}/versions/${version}`,
    requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: [arch] }],
  }));
}

/** The image of a status for an architecture, if resolved. */
export function imageFor(nodeClass: Pick<AKSNodeClass, 'status'>, arch: string): string | undefined {
  return nodeClass.status?.images?.find((i) =>
    i.requirements.some((r) => r.key === 'kubernetes.io/arch' && (r.values ?? []).includes(arch)),
  )?.id;
}
