import { checkApiVersion } from '../arm/api-versions.js';
import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError } from '../arm/errors.js';
import { page } from '../arm/paging.js';
import { galleryImageKey } from '../seed/gallery-images.js';

/**
 * `GET /subscriptions/{sub}/providers/Microsoft.Compute/locations/{location}/communityGalleries/
 * {gallery}/images/{image}/versions`: the image definition's versions replicated to the location,
 * paged with nextLink; 404 for an image definition the gallery does not have.
 */
export function listGalleryImageVersions(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('communityGalleryImageVersions', req.query);
  const { location, gallery, image } = req.params as { location: string; gallery: string; image: string };
  const versions = ctx.galleryImages.get(galleryImageKey(gallery, image));
  if (versions === undefined || location.toLowerCase() !== ctx.location) {
    throw new ArmError(
      404,
      'GalleryImageNotFound',
      `The gallery image ${gallery}/${image} is not available in ${location}.`,
    );
  }
  const items = versions.map((v) => ({
    name: v.name,
    location: ctx.location,
    type: 'Microsoft.Compute/locations/communityGalleries/images/versions',
    identifier: { uniqueId: `/CommunityGalleries/${gallery}/Images/${image}/Versions/${v.name}` },
    properties: {
      publishedDate: v.publishedDate,
      excludeFromLatest: v.excludeFromLatest ?? false,
      ...(v.endOfLifeDate !== undefined ? { endOfLifeDate: v.endOfLifeDate } : {}),
      storageProfile: { osDiskImage: { diskSizeGB: 30, hostCaching: 'ReadOnly' } },
    },
  }));
  const url = `${ctx.origin}/subscriptions/${ctx.subscriptionId}/providers/Microsoft.Compute/locations/${location}/communityGalleries/${gallery}/images/${image}/versions`;
  const { items: slice, next } = page(items, req.query, {
    pageSize: ctx.galleryPageSize,
    param: '$skiptoken',
    url,
  });
  return { status: 200, body: next === undefined ? { value: slice } : { value: slice, nextLink: next } };
}

/**
 * Whether a VM's `communityGalleryImageId` names a published version, as ARM checks it before
 * creating the VM. @throws ArmError otherwise.
 */
export function checkGalleryImageId(imageId: string, ctx: ArmContext): void {
  const m = /^\/CommunityGalleries\/([^/]+)\/images\/([^/]+)\/versions\/([^/]+)$/i.exec(imageId);
  const versions = m === null ? undefined : ctx.galleryImages.get(galleryImageKey(m[1]!, m[2]!));
  if (versions === undefined || !versions.some((v) => v.name === m?.[3])) {
    throw new ArmError(
      404,
      'GalleryImageNotFound',
      `The gallery image ${imageId} is not available in ${ctx.location}.`,
    );
  }
}
