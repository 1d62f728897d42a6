import { describe, expect, it } from 'vitest';
import { catalogRowFacts, serializeCatalogData } from '../data.js';
import { deriveCatalogData } from './derive.js';
import type { VpcLimits } from './go-tables.js';
import { parseInstanceTypesMarkdown } from './instance-types-md.js';

const section = (name: string, labels: Record<string, string>, resources: Record<string, string> = {}) =>
  [
    `### \`${name}\``,
    '#### Labels',
    ' | Label | Value |',
    ' |--|--|',
    ...Object.entries(labels).map(([k, v]) => ` |${k}|${v}|`),
    '#### Resources',
    ' | Resource | Quantity |',
    ' |--|--|',
    ...Object.entries(resources).map(([k, v]) => ` |${k}|${v}|`),
  ].join('\n');

const base = (family: string, size: string, cpu: string, memory: string, hypervisor = 'nitro') => ({
  'karpenter.k8s.aws/instance-family': family,
  'karpenter.k8s.aws/instance-size': size,
  'karpenter.k8s.aws/instance-cpu': cpu,
  'karpenter.k8s.aws/instance-memory': memory,
  'karpenter.k8s.aws/instance-cpu-manufacturer': 'intel',
  'karpenter.k8s.aws/instance-hypervisor': hypervisor,
  'karpenter.k8s.aws/instance-encryption-in-transit-supported': 'false',
  'kubernetes.io/arch': 'amd64',
});

const Markdown = [
  '---\ntitle: "Instance Types"\n---',
  '## m5 Family',
  section('m5.large', {
    ...base('m5', 'large', '2', '8192'),
    'karpenter.k8s.aws/instance-network-bandwidth': '700',
  }),
  section('m5.metal', base('m5', 'metal', '96', '393216', '')),
  '## m4 Family',
  section('m4.large', base('m4', 'large', '2', '8192', 'xen')),
  section('m4.16xlarge', base('m4', '16xlarge', '64', '262144', 'nitro')),
  '## g5 Family',
  section(
    'g5.xlarge',
    {
      ...base('g5', 'xlarge', '4', '16384'),
      'karpenter.k8s.aws/instance-cpu-manufacturer': 'amd',
      'karpenter.k8s.aws/instance-gpu-count': '1',
      'karpenter.k8s.aws/instance-gpu-manufacturer': 'nvidia',
      'karpenter.k8s.aws/instance-gpu-memory': '22888',
      'karpenter.k8s.aws/instance-gpu-name': 'a10g',
      'karpenter.k8s.aws/instance-local-nvme': '250',
    },
    { cpu: '3920m', 'nvidia.com/gpu': '1' },
  ),
  '## inf2 Family',
  section('inf2.xlarge', {
    ...base('inf2', 'xlarge', '4', '16384'),
    'karpenter.k8s.aws/instance-accelerator-count': '1',
    'karpenter.k8s.aws/instance-accelerator-manufacturer': 'aws',
    'karpenter.k8s.aws/instance-accelerator-name': 'inferentia2',
  }),
  section('dl2q.24xlarge', {
    ...base('dl2q', '24xlarge', '96', '786432'),
    'karpenter.k8s.aws/instance-accelerator-count': '8',
    'karpenter.k8s.aws/instance-accelerator-manufacturer': 'qualcomm',
    'karpenter.k8s.aws/instance-accelerator-name': 'qualcomm-ai100',
  }),
  section('z9.large', base('z9', 'large', '2', '8192')),
  section('y9.large', base('y9', 'large', '2', '8192')),
].join('\n');

const limits = (maxENIs: number, ipv4PerENI: number): VpcLimits => ({
  maxENIs,
  ipv4PerENI,
  hypervisor: 'nitro',
  bareMetal: false,
});

const east = new Map([
  ['m5.large', 0.096],
  ['m5.metal', 4.608],
  ['m4.large', 0.1],
  ['g5.xlarge', 1.006],
  ['inf2.xlarge', 0.7582],
  ['dl2q.24xlarge', 8.9],
  ['z9.large', 0.5],
]);

const derived = () =>
  deriveCatalogData({
    instanceTypes: parseInstanceTypesMarkdown(Markdown),
    vpcLimits: new Map(
      [
        'm5.large',
        'm5.metal',
        'm4.large',
        'm4.16xlarge',
        'g5.xlarge',
        'inf2.xlarge',
        'dl2q.24xlarge',
        'y9.large',
      ].map((name) => [name, limits(3, 10)]),
    ),
    bandwidth: new Map([['m5.large', 750]]),
    prices: [
      {
        regions: new Map([
          ['us-east-1', east],
          ['us-gov-west-1', new Map([['m5.large', 0.121]])],
          ['cn-north-1', new Map([['m5.large', 0.8]])],
        ]),
      },
    ],
    source: { repository: 'r', commit: 'c', files: {}, generatedAt: {}, currentGeneration: 'rule' },
  });

describe('parseInstanceTypesMarkdown', () => {
  it('reads each type with its labels and resources tables', () => {
    const docs = parseInstanceTypesMarkdown(Markdown);
    expect(docs.map((d) => d.name)).toContain('g5.xlarge');
    const g5 = docs.find((d) => d.name === 'g5.xlarge');
    expect(g5?.labels['karpenter.k8s.aws/instance-gpu-name']).toBe('a10g');
    expect(g5?.labels.Label).toBeUndefined();
    expect(g5?.resources).toEqual({ cpu: '3920m', 'nvidia.com/gpu': '1' });
    expect(docs.find((d) => d.name === 'm5.metal')?.labels['karpenter.k8s.aws/instance-hypervisor']).toBe('');
  });

  it('refuses a page without types', () => {
    expect(() => parseInstanceTypesMarkdown('# nothing', 'p.md')).toThrow('p.md: no "### `type`" sections');
  });
});

describe('deriveCatalogData', () => {
  it('keeps current-generation types with a price, sorted, and says why the others are left out', () => {
    const { data, skipped } = derived();
    expect(data.instanceTypes.map((t) => t.name)).toEqual([
      'dl2q.24xlarge',
      'g5.xlarge',
      'inf2.xlarge',
      'm5.large',
      'm5.metal',
    ]);
    expect(skipped).toEqual([
      { name: 'm4.large', reason: 'previous generation: family m4 runs on Xen' },
      { name: 'm4.16xlarge', reason: 'previous generation: family m4 runs on Xen' },
      { name: 'z9.large', reason: 'not in the VPC limits table (ENIs unknown)' },
      { name: 'y9.large', reason: 'no on-demand price in any region of the price tables' },
    ]);
  });

  it('takes facts from the labels, ENIs from the limits, bandwidth from its table, prices per USD region', () => {
    const rows = new Map(derived().data.instanceTypes.map((t) => [t.name, t]));
    expect(rows.get('m5.large')).toEqual({
      name: 'm5.large',
      architecture: 'amd64',
      vcpus: 2,
      memoryMiB: 8192,
      maxENIs: 3,
      ipv4PerENI: 10,
      cpuManufacturer: 'intel',
      hypervisor: 'nitro',
      networkBandwidthMbps: 750,
      encryptionInTransitSupported: false,
      prices: { 'us-east-1': 0.096, 'us-gov-west-1': 0.121 },
    });
    expect(rows.get('m5.metal')?.hypervisor).toBeUndefined();
    expect(rows.get('g5.xlarge')).toMatchObject({
      gpu: { name: 'a10g', manufacturer: 'nvidia', count: 1, memoryMiB: 22888 },
      localNvmeGB: 250,
      prices: { 'us-east-1': 1.006 },
    });
    expect(rows.get('inf2.xlarge')?.neuron).toEqual({ name: 'inferentia2', count: 1 });
    expect(rows.get('dl2q.24xlarge')?.neuron).toBeUndefined();
  });

  it('rows become the facts the provider functions take, and serialise one type per line', () => {
    const { data } = derived();
    const g5 = data.instanceTypes.find((t) => t.name === 'g5.xlarge')!;
    expect(catalogRowFacts(g5)).toMatchObject({
      gpus: [{ name: 'a10g', count: 1 }],
      capacityTypes: ['on-demand', 'spot'],
    });
    expect(catalogRowFacts(g5)).not.toHaveProperty('prices');
    const text = serializeCatalogData(data);
    expect(JSON.parse(text)).toEqual(data);
    expect(text.split('\n').filter((l) => l.startsWith('    {"name"'))).toHaveLength(5);
    expect(serializeCatalogData(data)).toBe(text);
  });
});
