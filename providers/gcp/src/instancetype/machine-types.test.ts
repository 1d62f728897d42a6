import { describe, expect, it } from 'vitest';
import { parseMachineTypeName } from './labels.js';
import { type GceMachineTypeRecord, machineTypeFacts } from './machine-types.js';

const rec = (
  zone: string,
  name: string,
  extra: Partial<GceMachineTypeRecord> = {},
): GceMachineTypeRecord => ({
  name,
  zone: `https://www.googleapis.com/compute/v1/projects/p/zones/${zone}`,
  guestCpus: 8,
  memoryMb: 32768,
  isSharedCpu: false,
  ...extra,
});

describe('machine type names', () => {
  it.each([
    ['n2-standard-8', { family: 'n2', shape: 'standard', size: '8', generation: '2' }],
    ['n2d-highmem-16', { family: 'n2d', shape: 'highmem', size: '16', generation: '2' }],
    ['c3-standard-8-lssd', { family: 'c3', shape: 'standard', size: '8', generation: '3' }],
    ['e2-micro', { family: 'e2', shape: 'micro', generation: '2' }],
    ['a2-highgpu-4g', { family: 'a2', shape: 'highgpu', size: '4g', generation: '2' }],
  ])('%s', (name, parts) => {
    expect(parseMachineTypeName(name)).toEqual(parts);
  });
});

describe('machineTypeFacts', () => {
  it("keeps the region's zones, merges a type's zones, drops deprecated types and other regions", () => {
    const facts = machineTypeFacts(
      [
        rec('us-central1-b', 'n2-standard-8'),
        rec('us-central1-a', 'n2-standard-8'),
        rec('us-east1-b', 'n2-standard-8'),
        rec('us-central1-a', 'n1-standard-8', { deprecated: { state: 'DEPRECATED' } }),
        rec('us-central1-a', 't2a-standard-4', { guestCpus: 4, memoryMb: 16384, architecture: 'ARM64' }),
        rec('us-central1-a', 'e2-medium', { guestCpus: 2, memoryMb: 4096, isSharedCpu: true }),
        rec('us-central1-a', 'g2-standard-24', {
          guestCpus: 24,
          memoryMb: 98304,
          accelerators: [{ guestAcceleratorType: 'nvidia-l4', guestAcceleratorCount: 2 }],
        }),
        rec('us-central1-a', 'a2-highgpu-4g', { guestCpus: 48, memoryMb: 348160 }),
        rec('us-central1-a', 'c3-standard-8-lssd', { bundledLocalSsds: { partitionCount: 2 } }),
        rec('us-central1-a', 'broken', { guestCpus: null }),
      ],
      'us-central1',
    );
    const byName = Object.fromEntries(facts.map((f) => [f.name, f]));
    expect(Object.keys(byName)).toEqual([
      'a2-highgpu-4g',
      'c3-standard-8-lssd',
      'e2-medium',
      'g2-standard-24',
      'n2-standard-8',
      't2a-standard-4',
    ]);
    expect(byName['n2-standard-8']).toMatchObject({
      zones: ['us-central1-a', 'us-central1-b'],
      architecture: 'amd64',
    });
    expect(byName['t2a-standard-4']?.architecture).toBe('arm64');
    expect(byName['e2-medium']?.sharedCpu).toBe(true);
    expect(byName['g2-standard-24']?.gpu).toEqual({ name: 'nvidia-l4', count: 2 });
    expect(byName['a2-highgpu-4g']?.gpu).toEqual({ name: 'nvidia-tesla-a100', count: 4 });
    expect(byName['c3-standard-8-lssd']?.localSsdGiB).toBe(750);
  });
});
