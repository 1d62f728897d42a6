/** Public images seeded: the COS and Ubuntu releases node images come from. */
export const SeedImages: readonly {
  readonly project: string;
  readonly name: string;
  readonly family: string;
  readonly architecture: 'X86_64' | 'ARM64';
  readonly deprecated?: boolean;
}[] = [
  {
    project: 'cos-cloud',
    name: 'cos-stable-117-18613-0-79',
    family: 'cos-stable',
    architecture: 'X86_64',
    deprecated: true,
  },
  { project: 'cos-cloud', name: 'cos-stable-121-18867-90-38', family: 'cos-stable', architecture: 'X86_64' },
  {
    project: 'cos-cloud',
    name: 'cos-arm64-stable-121-18867-90-38',
    family: 'cos-arm64-stable',
    architecture: 'ARM64',
  },
  {
    project: 'ubuntu-os-cloud',
    name: 'ubuntu-2404-noble-amd64-v20261101',
    family: 'ubuntu-2404-lts-amd64',
    architecture: 'X86_64',
  },
  {
    project: 'ubuntu-os-cloud',
    name: 'ubuntu-2404-noble-arm64-v20261101',
    family: 'ubuntu-2404-lts-arm64',
    architecture: 'ARM64',
  },
];
