import { ArmError } from './errors.js';

/**
 * The api-version each resource type answers: the ones @azure/arm-compute 25 and
 * @azure/arm-network 39 send, plus the previous GA versions older clients use.
 */
export const API_VERSIONS = {
  skus: ['2021-07-01'],
  communityGalleryImageVersions: ['2025-12-03', '2025-03-03', '2024-03-03'],
  virtualMachines: ['2026-04-01', '2025-04-01', '2024-11-01', '2024-07-01'],
  disks: ['2026-03-02', '2025-01-02', '2024-03-02'],
  networkInterfaces: ['2026-01-01', '2025-05-01', '2024-07-01', '2024-05-01'],
  retailPrices: ['2023-01-01-preview'],
} as const satisfies Record<string, readonly string[]>;

export type ArmResourceType = keyof typeof API_VERSIONS;

/** Refuses a request without an api-version, or with one the resource type does not answer. */
export function checkApiVersion(type: ArmResourceType, query: URLSearchParams): void {
  const version = query.get('api-version');
  if (version === null) {
    throw new ArmError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  }
  const known: readonly string[] = API_VERSIONS[type];
  if (!known.includes(version)) {
    throw new ArmError(
      400,
      'NoRegisteredProviderFound',
      `No registered resource provider found for API version '${version}' and resource type '${type}'. The supported api-versions are '${known.join(', ')}'.`,
    );
  }
}
