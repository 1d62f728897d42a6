import type { Image } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { aliasImageQueries } from './aliases.js';
import { amiQueries, isDeprecated, selectAmis } from './amis.js';

const NOW = Date.parse('2026-12-02T12:00:00Z');

describe('aliasImageQueries', () => {
  it('al2023@latest: standard/nvidia/neuron on x86_64, standard/nvidia on arm64', () => {
    expect(
      aliasImageQueries('al2023@latest', '1.31').map((q) => [q.namePattern, q.architecture, q.variants]),
    ).toEqual([
      ['amazon-eks-node-al2023-x86_64-standard-1.31-v*', 'x86_64', ['standard']],
      ['amazon-eks-node-al2023-x86_64-nvidia-1.31-v*', 'x86_64', ['nvidia']],
      ['amazon-eks-node-al2023-x86_64-neuron-1.31-v*', 'x86_64', ['neuron']],
      ['amazon-eks-node-al2023-arm64-standard-1.31-v*', 'arm64', ['standard']],
      ['amazon-eks-node-al2023-arm64-nvidia-1.31-v*', 'arm64', ['nvidia']],
    ]);
  });
  it('pins a version exactly', () => {
    expect(aliasImageQueries('bottlerocket@v1.20.0', '1.30').map((q) => q.namePattern)).toEqual([
      'bottlerocket-aws-k8s-1.30-x86_64-v1.20.0-*',
      'bottlerocket-aws-k8s-1.30-aarch64-v1.20.0-*',
      'bottlerocket-aws-k8s-1.30-nvidia-x86_64-v1.20.0-*',
      'bottlerocket-aws-k8s-1.30-nvidia-aarch64-v1.20.0-*',
    ]);
    expect(aliasImageQueries('al2@v20240807', '1.29').map((q) => q.namePattern)).toEqual([
      'amazon-eks-node-1.29-v20240807',
      'amazon-eks-arm64-node-1.29-v20240807',
      'amazon-eks-gpu-node-1.29-v20240807',
    ]);
  });
  it('windows aliases are x86_64 only and require os windows', () => {
    expect(aliasImageQueries('windows2022@latest', '1.31')).toEqual([
      {
        namePattern: 'Windows_Server-2022-English-Core-EKS_Optimized-1.31-*',
        architecture: 'x86_64',
        variants: ['standard'],
        extra: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }],
      },
    ]);
  });
  it('refuses an unknown family', () => {
    expect(() => aliasImageQueries('ubuntu@latest', '1.31')).toThrow(
      'amiSelectorTerms alias ubuntu@latest: unknown AMI family',
    );
  });
});

describe('amiQueries', () => {
  it('alias -> owner amazon + name pattern + available', () => {
    const { queries } = amiQueries([{ alias: 'al2023@latest' }], '1.31');
    expect(queries[0]?.input).toEqual({
      Owners: ['amazon'],
      Filters: [
        { Name: 'name', Values: ['amazon-eks-node-al2023-x86_64-standard-1.31-v*'] },
        { Name: 'state', Values: ['available'] },
      ],
    });
  });
  it('ids share one query that includes deprecated images; names default to owners self and amazon', () => {
    const { queries, ssmParameters } = amiQueries(
      [
        { id: 'ami-1' },
        { name: 'my-ami-*' },
        { tags: { team: '*' }, owner: '123456789012' },
        { id: 'ami-2' },
        { ssmParameter: '/x' },
      ],
      '1.31',
    );
    expect(queries.map((q) => [q.input, q.pinned])).toEqual([
      [
        {
          Filters: [
            { Name: 'image-id', Values: ['ami-1', 'ami-2'] },
            { Name: 'state', Values: ['available'] },
          ],
          IncludeDeprecated: true,
        },
        true,
      ],
      [
        {
          Owners: ['self', 'amazon'],
          Filters: [
            { Name: 'name', Values: ['my-ami-*'] },
            { Name: 'state', Values: ['available'] },
          ],
        },
        false,
      ],
      [
        {
          Owners: ['123456789012'],
          Filters: [
            { Name: 'tag-key', Values: ['team'] },
            { Name: 'state', Values: ['available'] },
          ],
        },
        false,
      ],
    ]);
    expect(ssmParameters).toEqual(['/x']);
  });
});

const image = (id: string, arch: 'x86_64' | 'arm64', created: string, extra: Partial<Image> = {}): Image => ({
  ImageId: id,
  Name: `img-${id}`,
  Architecture: arch,
  CreationDate: created,
  ...extra,
});

describe('selectAmis', () => {
  const { queries } = amiQueries([{ alias: 'al2023@latest' }], '1.31');
  const [x86Standard, x86Nvidia, , armStandard] = queries;

  it('keeps the newest image per architecture and variant, with its requirements', () => {
    const amis = selectAmis(
      [
        {
          query: x86Standard!,
          images: [
            image('a1', 'x86_64', '2026-10-01T00:00:00Z'),
            image('a2', 'x86_64', '2026-11-01T00:00:00Z'),
          ],
        },
        { query: x86Nvidia!, images: [image('n1', 'x86_64', '2026-11-01T00:00:00Z')] },
        {
          query: armStandard!,
          images: [
            image('r1', 'arm64', '2026-11-02T00:00:00Z'),
            image('wrong', 'x86_64', '2026-12-01T00:00:00Z'),
          ],
        },
      ],
      NOW,
    );
    expect(amis.map((a) => [a.id, a.requirements])).toEqual([
      [
        'a2',
        [
          { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'DoesNotExist' },
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
        ],
      ],
      [
        'n1',
        [
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'Exists' },
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
        ],
      ],
      [
        'r1',
        [
          { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'DoesNotExist' },
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
          { key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] },
        ],
      ],
    ]);
  });

  it('skips deprecated images unless pinned by id', () => {
    const deprecated = image('old', 'x86_64', '2026-12-01T00:00:00Z', {
      DeprecationTime: '2026-12-01T00:00:00Z',
    });
    const byName = amiQueries([{ name: 'x' }], '1.31').queries[0]!;
    const byId = amiQueries([{ id: 'ami-old' }], '1.31').queries[0]!;
    expect(
      selectAmis(
        [{ query: byName, images: [deprecated, image('live', 'x86_64', '2026-01-01T00:00:00Z')] }],
        NOW,
      ).map((a) => a.id),
    ).toEqual(['live']);
    expect(selectAmis([{ query: byId, images: [deprecated] }], NOW)).toEqual([
      {
        id: 'old',
        name: 'img-old',
        deprecated: true,
        creationDate: '2026-12-01T00:00:00Z',
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      },
    ]);
    expect(isDeprecated({ DeprecationTime: '2027-01-01T00:00:00Z' }, NOW)).toBe(false);
  });

  it('a custom selection also keeps one image per architecture; other architectures are ignored', () => {
    const q = amiQueries([{ tags: { a: 'b' } }], '1.31').queries[0]!;
    const amis = selectAmis(
      [
        {
          query: q,
          images: [
            image('x1', 'x86_64', '2026-01-01T00:00:00Z'),
            image('x2', 'x86_64', '2026-01-01T00:00:00Z', { Name: 'zzz' }),
            image('m1', 'arm64', '2026-01-01T00:00:00Z'),
            { ImageId: 'i386', Architecture: 'i386' },
          ],
        },
      ],
      NOW,
    );
    // Same CreationDate: the larger name wins, as upstream.
    expect(amis.map((a) => a.id)).toEqual(['m1', 'x2']);
  });
});
