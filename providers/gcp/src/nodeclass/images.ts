import { Labels } from '@nodewright/core/apis';
import type { GCENodeClass, ImageSelectorTerm } from '../apis/index.js';

/** Where an image is looked up: a family (newest non-deprecated image) or a name, in a project. */
export interface ImageQuery {
  readonly project: string;
  readonly family?: string;
  readonly name?: string;
  /** Kubernetes' arch the image is for, when the term implies one. */
  readonly arch?: 'amd64' | 'arm64';
}

/** The public image families each alias maps to, per architecture. */
const AliasFamilies: Readonly<Record<string, { project: string; amd64: string; arm64: string }>> = {
  cos: { project: 'cos-cloud', amd64: 'cos-stable', arm64: 'cos-arm64-stable' },
  ubuntu: { project: 'ubuntu-os-cloud', amd64: 'ubuntu-2404-lts-amd64', arm64: 'ubuntu-2404-lts-arm64' },
};

/**
 * The image lookups one selector term stands for: an alias `family@latest` is the family's newest
 * image for each architecture; `family@v<date>` is not resolvable from public families and gives
 * none. An id or family term is looked up in its project (the cluster's when unset).
 */
export function imageQueries(term: ImageSelectorTerm, project: string): ImageQuery[] {
  if (term.alias !== undefined) {
    const [prefix = '', version] = term.alias.split('@');
    const a = AliasFamilies[prefix];
    if (a === undefined || version !== 'latest') return [];
    return [
      { project: a.project, family: a.amd64, arch: 'amd64' },
      { project: a.project, family: a.arm64, arch: 'arm64' },
    ];
  }
  const p = term.project ?? project;
  if (term.family !== undefined) return [{ project: p, family: term.family }];
  return term.id === undefined ? [] : [{ project: p, name: term.id }];
}

/**
 * The boot image for an architecture from the NodeClass status: the first resolved image whose
 * requirements allow the arch (an image without an arch requirement suits every arch).
 */
export function imageForArch(nodeClass: Pick<GCENodeClass, 'status'>, arch: string): string | undefined {
  return nodeClass.status?.images?.find((image) => {
    const r = image.requirements.find((q) => q.key === Labels.Arch);
    return r === undefined || (r.operator === 'In' && (r.values ?? []).includes(arch));
  })?.sourceImage;
}
