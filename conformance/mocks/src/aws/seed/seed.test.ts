import { describe, expect, it } from 'vitest';
import { buildSeed, eniLimitedPods, SEED_INSTANCE_TYPES } from './index.js';

const byName = (name: string) => SEED_INSTANCE_TYPES.find((t) => t.name === name);

describe('seed', () => {
  it('carries the published facts of well-known types', () => {
    expect(byName('m5.large')).toMatchObject({
      vcpus: 2,
      memoryMiB: 8192,
      maxEnis: 3,
      ipv4PerEni: 10,
      onDemandUsd: 0.096,
    });
    expect(byName('c6g.medium')).toMatchObject({
      vcpus: 1,
      memoryMiB: 2048,
      architecture: 'arm64',
      onDemandUsd: 0.034,
    });
    expect(byName('r6i.32xlarge')).toMatchObject({ vcpus: 128, memoryMiB: 1048576, onDemandUsd: 8.064 });
    expect(byName('g4dn.xlarge')?.gpu).toEqual({
      name: 'T4',
      manufacturer: 'NVIDIA',
      count: 1,
      memoryMiB: 16384,
    });
    expect(byName('m4.large')?.hypervisor).toBe('xen');
    expect(byName('t3.medium')?.burstable).toBe(true);
    expect(eniLimitedPods(byName('m5.large')!)).toBe(29);
    expect(eniLimitedPods(byName('t3.medium')!)).toBe(17);
    expect(eniLimitedPods(byName('m5.24xlarge')!)).toBe(737);
  });

  it('has more types than one DescribeInstanceTypes page and unique names', () => {
    const names = SEED_INSTANCE_TYPES.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(100);
  });

  it('builds zones, offerings, discovery-tagged subnets and groups, and EKS images', () => {
    const seed = buildSeed({ now: Date.parse('2026-12-01T00:00:00Z'), cluster: 'c1' });
    expect(seed.region.zones.map((z) => z.name)).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    expect(seed.offerings.filter((o) => o.instanceType === 'g4dn.xlarge').map((o) => o.zone)).toEqual([
      'us-east-1a',
      'us-east-1b',
    ]);
    expect(seed.subnets.filter((s) => s.tags['karpenter.sh/discovery'] === 'c1').map((s) => s.zone)).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
    ]);
    expect(seed.securityGroups.filter((g) => g.tags['karpenter.sh/discovery'] === 'c1')).toHaveLength(2);
    expect(seed.images.map((i) => i.name)).toContain('amazon-eks-node-al2023-x86_64-standard-1.34-v20261101');
    expect(seed.images.map((i) => i.name)).toContain('bottlerocket-aws-k8s-1.34-aarch64-v1.50.0-4c5e6a1b');
    const spot = seed.spotPrices.filter(
      (p) => p.instanceType === 'm5.large' && p.productDescription === 'Linux/UNIX',
    );
    expect(spot).toHaveLength(9);
    for (const p of spot) {
      expect(p.usd).toBeGreaterThan(0.096 * 0.27);
      expect(p.usd).toBeLessThan(0.096 * 0.56);
    }
  });
});
