export type { ArmResource, VmRecord } from './arm/state.js';
export { ArmState } from './arm/state.js';
export * from './azure-mock.js';
export * from './faults/faults.js';
export type { GalleryImageVersion } from './seed/gallery-images.js';
export { SeedNodeImageVersions } from './seed/gallery-images.js';
export type { ResourceSku, SkuRestriction } from './seed/resource-skus.js';
export type { RetailPriceItem } from './seed/retail-prices.js';
