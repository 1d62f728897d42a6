import { NodeImageDefinitions } from '@nodewright/azure';

/** One version of a community gallery image definition, as the mock stores it. */
export interface GalleryImageVersion {
  readonly name: string;
  readonly publishedDate: string;
  readonly excludeFromLatest?: boolean;
  readonly endOfLifeDate?: string;
}

/** AKS node image releases the mock's galleries start with, oldest first (publication dates as AKS released them, approximately). */
export const SeedNodeImageVersions: readonly GalleryImageVersion[] = [
  { name: '202509.23.0', publishedDate: '2025-09-26T00:00:00Z' },
  { name: '202510.15.0', publishedDate: '2025-10-18T00:00:00Z' },
  { name: '202511.07.0', publishedDate: '2025-11-10T00:00:00Z' },
];

/** The key of an image definition in the mock's galleries (names are case-insensitive). */
export function galleryImageKey(gallery: string, image: string): string {
  return `${gallery.toLowerCase()}/${image.toLowerCase()}`;
}

/** Every AKS node image definition the provider launches from, each with the seed versions. */
export function seedGalleryImages(): Map<string, GalleryImageVersion[]> {
  const out = new Map<string, GalleryImageVersion[]>();
  for (const byArch of Object.values(NodeImageDefinitions)) {
    for (const d of Object.values(byArch))
      out.set(galleryImageKey(d.gallery, d.image), [...SeedNodeImageVersions]);
  }
  return out;
}
