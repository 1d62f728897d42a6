import { FakeClock } from '@nodewright/core/clock';
import { MemoryCluster, resourceTypeOf } from '@nodewright/core/kube';
import { createLogger } from '@nodewright/core/operator';
import { reconcileContext } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import {
  type EC2NodeClass,
  EC2NodeClassAnnotations,
  EC2NodeClassHashVersion,
  ec2NodeClassHash,
  ec2NodeClassKind,
} from '../apis/index.js';
import type { NodeClassFacts } from './facts.js';
import { EC2NodeClassFinalizer } from './resource.js';
import { EC2NodeClassStatusController, NodeClassResyncMs } from './status-controller.js';
import { nodeClassFixture } from './testing.js';

const EC2NodeClasses = resourceTypeOf<EC2NodeClass>(ec2NodeClassKind);
const T0 = Date.parse('2026-12-02T12:00:00Z');

const goodFacts: NodeClassFacts = {
  subnets: [{ id: 'subnet-a', zone: 'us-west-2a', zoneID: 'usw2-az1' }],
  securityGroups: [{ id: 'sg-1', name: 'nodes' }],
  amis: [
    {
      id: 'ami-1',
      name: 'img',
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
    },
  ],
  instanceProfile: 'prod_1',
  problems: {},
};

async function world() {
  const clock = new FakeClock(T0);
  const cluster = new MemoryCluster({ clock, kinds: [EC2NodeClasses] });
  await cluster.create(EC2NodeClasses, nodeClassFixture());
  let facts: NodeClassFacts = goodFacts;
  let failure: Error | undefined;
  let resolves = 0;
  const resolver = {
    resolve: async () => {
      resolves++;
      if (failure !== undefined) throw failure;
      return facts;
    },
  };
  const lines: string[] = [];
  const logger = createLogger({
    destination: { write: (line: string) => void lines.push(line) },
    now: () => clock.now(),
  });
  const context = reconcileContext({ logger });
  const controller = new EC2NodeClassStatusController({ cluster, resolver, clock });
  const patches = { status: 0 };
  const originalPatchStatus = cluster.patchStatus.bind(cluster);
  cluster.patchStatus = (async (...args: Parameters<typeof originalPatchStatus>) => {
    patches.status++;
    return originalPatchStatus(...args);
  }) as typeof cluster.patchStatus;
  return {
    clock,
    cluster,
    controller,
    context,
    lines,
    patches,
    resolves: () => resolves,
    setFacts: (f: NodeClassFacts) => {
      facts = f;
    },
    fail: (e: Error | undefined) => {
      failure = e;
    },
  };
}

describe('EC2NodeClassStatusController', () => {
  it('writes status, conditions and the hash annotation, and requeues in 5 minutes', async () => {
    const w = await world();
    const result = await w.controller.reconcile({ name: 'default' }, w.context);
    expect(result).toEqual({ requeueAfterMs: NodeClassResyncMs });
    const nc = await w.cluster.get(EC2NodeClasses, { name: 'default' });
    expect(nc.status?.subnets).toEqual([{ id: 'subnet-a', zone: 'us-west-2a', zoneID: 'usw2-az1' }]);
    expect(nc.status?.instanceProfile).toBe('prod_1');
    expect(nc.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(nc.metadata.annotations).toMatchObject({
      [EC2NodeClassAnnotations.Hash]: ec2NodeClassHash(nc),
      [EC2NodeClassAnnotations.HashVersion]: EC2NodeClassHashVersion,
    });
    expect(w.lines.some((l) => l.includes('EC2NodeClass is ready'))).toBe(true);
    expect(nc.metadata.finalizers).toEqual([EC2NodeClassFinalizer]);
  });

  it('shows an instance profile problem in InstanceProfileReady and Ready', async () => {
    const w = await world();
    w.setFacts({
      ...goodFacts,
      instanceProfileDerivedFromRole: 'NodeRole',
      problems: {
        instanceProfile:
          'adding role NodeRole to instance profile prod_1: role NodeRole does not exist (NoSuchEntity: The role with name NodeRole cannot be found.)',
      },
    });
    await w.controller.reconcile({ name: 'default' }, w.context);
    const nc = await w.cluster.get(EC2NodeClasses, { name: 'default' });
    expect(nc.status?.conditions?.find((c) => c.type === 'InstanceProfileReady')).toMatchObject({
      status: 'False',
      message: expect.stringContaining('role NodeRole does not exist'),
    });
    expect(nc.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('adds its finalizer before resolving, and leaves a deleting NodeClass alone', async () => {
    const w = await world();
    await w.cluster.delete(EC2NodeClasses, { name: 'default' });
    await w.cluster.create(EC2NodeClasses, {
      ...nodeClassFixture(),
      metadata: { name: 'held', finalizers: ['example.com/keep'] },
    });
    await w.controller.reconcile({ name: 'held' }, w.context);
    expect((await w.cluster.get(EC2NodeClasses, { name: 'held' })).metadata.finalizers).toEqual([
      'example.com/keep',
      EC2NodeClassFinalizer,
    ]);
    await w.cluster.delete(EC2NodeClasses, { name: 'held' });
    const resolves = w.resolves();
    expect(await w.controller.reconcile({ name: 'held' }, w.context)).toBeUndefined();
    expect(w.resolves()).toBe(resolves);
  });

  it('writes nothing when nothing changed', async () => {
    const w = await world();
    await w.controller.reconcile({ name: 'default' }, w.context);
    w.clock.step(NodeClassResyncMs);
    await w.controller.reconcile({ name: 'default' }, w.context);
    expect(w.patches.status).toBe(1);
    expect(w.resolves()).toBe(2);
  });

  it('turns not Ready when the cloud changes, and clears fields that went away', async () => {
    const w = await world();
    await w.controller.reconcile({ name: 'default' }, w.context);
    w.clock.step(60_000);
    const { instanceProfile: _dropped, ...rest } = goodFacts;
    w.setFacts({
      ...rest,
      subnets: [],
      problems: { subnets: 'no subnets matched subnetSelectorTerms (id subnet-a)' },
    });
    await w.controller.reconcile({ name: 'default' }, w.context);
    const nc = await w.cluster.get(EC2NodeClasses, { name: 'default' });
    expect(nc.status?.subnets).toEqual([]);
    expect(nc.status?.instanceProfile).toBeUndefined();
    expect(nc.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      message: 'SubnetsReady=False: no subnets matched subnetSelectorTerms (id subnet-a)',
      lastTransitionTime: '2026-12-02T12:01:00Z',
    });
    expect(w.lines.some((l) => l.includes('EC2NodeClass is not ready'))).toBe(true);
  });

  it('keeps the previous status when resolution fails, failing the reconcile', async () => {
    const w = await world();
    await w.controller.reconcile({ name: 'default' }, w.context);
    w.fail(new Error('EC2NodeClass default: DescribeSubnets failed: throttled'));
    await expect(w.controller.reconcile({ name: 'default' }, w.context)).rejects.toThrow(
      'DescribeSubnets failed',
    );
    const nc = await w.cluster.get(EC2NodeClasses, { name: 'default' });
    expect(nc.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('ignores a missing NodeClass', async () => {
    const w = await world();
    expect(await w.controller.reconcile({ name: 'absent' }, w.context)).toBeUndefined();
    expect(w.resolves()).toBe(0);
  });

  it('watches spec and annotation changes, not its own status writes', () => {
    const w = {
      controller: new EC2NodeClassStatusController({
        cluster: {} as never,
        resolver: { resolve: async () => goodFacts },
        clock: new FakeClock(0),
      }),
    };
    const [watch] = w.controller.watches;
    const base = { ...nodeClassFixture(), metadata: { name: 'default', generation: 1 } };
    const keys = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: EC2NodeClass, previous?: EC2NodeClass) => [
      ...(watch?.map({ type, object, ...(previous ? { previous } : {}) }, {} as never) ?? []),
    ];
    expect(keys('ADDED', base)).toEqual([{ name: 'default' }]);
    expect(keys('MODIFIED', { ...base, status: { subnets: [] } }, base)).toEqual([]);
    expect(keys('MODIFIED', { ...base, metadata: { name: 'default', generation: 2 } }, base)).toEqual([
      { name: 'default' },
    ]);
    expect(
      keys(
        'MODIFIED',
        { ...base, metadata: { name: 'default', generation: 1, annotations: { a: 'b' } } },
        base,
      ),
    ).toEqual([{ name: 'default' }]);
    expect(keys('DELETED', base)).toEqual([]);
  });
});
