import type { Clock } from '@nodewright/core/clock';
import type { AKSNodeClass } from '../apis/index.js';
import type { ComputeApi } from '../sdk/ports.js';
import {
  type ImageDefinition,
  type ImageVersionInfo,
  imageDefinitionsOf,
  latestImageVersion,
  type ResolvedImage,
  resolvedImage,
} from './images.js';

/** How long a gallery's version list is trusted before it is read again (AKS publishes weekly). */
export const DefaultImageRefreshMs = 60 * 60_000;

/** A NodeClass whose images cannot be resolved, with the reason for its Ready condition. */
export class ImageResolutionError extends Error {
  override readonly name = 'ImageResolutionError';
}

export interface NodeImageResolverOptions {
  readonly compute: Pick<ComputeApi, 'listCommunityGalleryImageVersions'>;
  /** The region whose gallery replicas are listed. */
  readonly location: string;
  readonly clock: Clock;
  /** Version lists are read again after this long; {@link DefaultImageRefreshMs} when unset. */
  readonly refreshMs?: number;
  /** The operator-wide pin for NodeClasses that set no `imageVersion`; unset = the latest. */
  readonly defaultVersion?: string;
}

interface Listing {
  readonly at: number;
  readonly versions: readonly ImageVersionInfo[];
}

/**
 * Resolves an AKSNodeClass to concrete node images as AKS node auto-provisioning does: for each
 * architecture the family's community gallery image definition, at the NodeClass's
 * `imageVersion` (or the operator's pin) when one is set and published, else at the latest
 * published version. Version lists are cached per definition for `refreshMs`; a failed read
 * falls back to the last list read, so a gallery outage does not unready a NodeClass.
 */
export class NodeImageResolver {
  readonly #o: NodeImageResolverOptions;
  readonly #listings = new Map<string, Listing>();

  constructor(options: NodeImageResolverOptions) {
    this.#o = options;
  }

  /**
   * One image per architecture.
   * @throws ImageResolutionError when a pinned version is not published, a definition has no
   * version to launch, or its versions cannot be read and none were read before.
   */
  async resolve(nodeClass: Pick<AKSNodeClass, 'spec'>): Promise<ResolvedImage[]> {
    const pinned = nodeClass.spec.imageVersion ?? this.#o.defaultVersion;
    const out: ResolvedImage[] = [];
    for (const { arch, definition } of imageDefinitionsOf(nodeClass)) {
      const versions = await this.#versions(definition);
      let version: string | undefined;
      if (pinned !== undefined) {
        if (!versions.some((v) => v.name === pinned)) {
          throw new ImageResolutionError(
            `image version ${pinned} is not published for ${definition.image} in gallery ${definition.gallery}`,
          );
        }
        version = pinned;
      } else {
        version = latestImageVersion(versions, this.#o.clock.now());
        if (version === undefined) {
          throw new ImageResolutionError(
            `gallery ${definition.gallery} has no version of ${definition.image} to launch`,
          );
        }
      }
      out.push(resolvedImage(arch, definition, version));
    }
    return out;
  }

  async #versions(definition: ImageDefinition): Promise<readonly ImageVersionInfo[]> {
    const key = `${definition.gallery}/${definition.image}`;
    const now = this.#o.clock.now();
    const cached = this.#listings.get(key);
    if (cached !== undefined && now - cached.at < (this.#o.refreshMs ?? DefaultImageRefreshMs)) {
      return cached.versions;
    }
    try {
      const versions: ImageVersionInfo[] = [];
      for await (const v of this.#o.compute.listCommunityGalleryImageVersions(
        this.#o.location,
        definition.gallery,
        definition.image,
      )) {
        versions.push(v);
      }
      this.#listings.set(key, { at: now, versions });
      return versions;
    } catch (err) {
      if (cached !== undefined) return cached.versions;
      throw new ImageResolutionError(
        `cannot list the versions of ${definition.image} in gallery ${definition.gallery}: ${(err as Error).message}`,
      );
    }
  }
}
