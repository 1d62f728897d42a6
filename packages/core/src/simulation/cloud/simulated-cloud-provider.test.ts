import { describe, expect, it } from 'vitest';
import { Labels } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import {
  InsufficientCapacityError,
  isNodeClaimNotFound,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '../../cloudprovider/errors.js';
import { SeededRandom } from '../random/random.js';
import type { SimulatedCloudProviderOptions } from './options.js';
import { SimulatedCloudProvider } from './simulated-cloud-provider.js';
import { testInstanceType, testNodeClaim } from './test-fixtures.js';

const START = Date.parse('2026-03-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

const catalog = [
  testInstanceType(
    'small',
    { cpu: '2', memory: '4Gi' },
    { 'on-demand:zone-a': 0.1, 'on-demand:zone-b': 0.1, 'spot:zone-a': 0.03, 'spot:zone-b': 0.04 },
  ),
  testInstanceType(
    'large',
    { cpu: '8', memory: '32Gi' },
    { 'on-demand:zone-a': 0.4, 'on-demand:zone-b': 0.4, 'spot:zone-a': 0.12, 'spot:zone-b': 0.125 },
  ),
];

function setup(options: Partial<SimulatedCloudProviderOptions> = {}) {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const provider = new SimulatedCloudProvider({
    clock,
    timers,
    catalog,
    random: new SeededRandom('test'),
    interruptionReceiveWaitMs: 0,
    ...options,
  });
  return { clock, timers, provider };
}

const nodePool = {} as NodePool;

describe('SimulatedCloudProvider create', () => {
  it('launches the cheapest compatible offering and hydrates the claim', async () => {
    const { provider } = setup();
    const claim = await provider.create(testNodeClaim('a', { types: ['small', 'large'] }));
    expect(claim.status?.providerID).toBe('sim://zone-a/i-00000000000000001');
    expect(claim.metadata.labels).toMatchObject({
      [Labels.InstanceType]: 'small',
      [Labels.Zone]: 'zone-a',
      [Labels.CapacityType]: 'spot',
      [Labels.Arch]: 'amd64',
      [Labels.OS]: 'linux',
      [Labels.NodePool]: 'default',
    });
    expect(claim.status?.capacity).toEqual({ cpu: '2', memory: '4Gi', pods: '110' });
    expect(claim.status?.allocatable).toEqual({ cpu: '2', memory: '4Gi', pods: '110' });
    expect(claim.status?.imageID).toBe('sim-image-1');
  });

  it('honours instance-type, zone and capacity-type requirements and resource requests', async () => {
    const { provider } = setup();
    const onDemandB = await provider.create(
      testNodeClaim('a', { types: ['small', 'large'], zones: ['zone-b'], capacityTypes: ['on-demand'] }),
    );
    expect(onDemandB.metadata.labels).toMatchObject({
      [Labels.InstanceType]: 'small',
      [Labels.Zone]: 'zone-b',
      [Labels.CapacityType]: 'on-demand',
    });
    const big = await provider.create(
      testNodeClaim('b', { types: ['small', 'large'], requests: { cpu: '4' } }),
    );
    expect(big.metadata.labels?.[Labels.InstanceType]).toBe('large');
    await expect(
      provider.create(testNodeClaim('c', { types: ['small'], requests: { cpu: '4' } })),
    ).rejects.toThrow(InsufficientCapacityError);
  });

  it('fails over through offerings in price order on insufficient capacity and marks each refused one', async () => {
    const { provider } = setup({
      insufficientCapacityRate: { 'spot:small:zone-a': 1, 'spot:small:zone-b': 1 },
    });
    const claim = await provider.create(testNodeClaim('a', { types: ['small', 'large'] }));
    // Next cheapest after small spot (0.03, 0.04): small on-demand at 0.1.
    expect(claim.metadata.labels).toMatchObject({
      [Labels.InstanceType]: 'small',
      [Labels.CapacityType]: 'on-demand',
    });
    expect(claim.metadata.labels?.[Labels.Zone]).toBe('zone-a');
    expect(
      provider.unavailableOfferings
        .entries()
        .map((e) => `${e.capacityType}:${e.instanceType}:${e.zone}`)
        .sort(),
    ).toEqual(['spot:small:zone-a', 'spot:small:zone-b']);
    // getInstanceTypes still lists them, as unavailable.
    const types = await provider.getInstanceTypes(nodePool);
    const small = types.find((t) => t.name === 'small')!;
    expect(small.offerings.filter((o) => !o.available).map((o) => `${o.capacityType}:${o.zone}`)).toEqual([
      'spot:zone-a',
      'spot:zone-b',
    ]);
    expect(types.find((t) => t.name === 'large')!.offerings.every((o) => o.available)).toBe(true);
  });

  it('throws InsufficientCapacity naming every refused offering when none has capacity', async () => {
    const { provider, clock } = setup({ insufficientCapacityRate: { '*:small:*': 1 } });
    const err = await provider.create(testNodeClaim('a', { types: ['small'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect((err as InsufficientCapacityError).offerings).toEqual([
      'spot:small:zone-a',
      'spot:small:zone-b',
      'on-demand:small:zone-a',
      'on-demand:small:zone-b',
    ]);
    expect(provider.instances()).toEqual([]);
    // Refused offerings are skipped until the 3 minute TTL passes.
    await expect(provider.create(testNodeClaim('b', { types: ['small'] }))).rejects.toThrow(
      /no compatible offering is available/,
    );
    clock.step(3 * MIN);
    expect(provider.unavailableOfferings.entries()).toEqual([]);
  });

  it('tries only offeringsPerCreate offerings per call, leaving the rest to the next call', async () => {
    const { provider } = setup({
      offeringsPerCreate: 1,
      insufficientCapacityRate: { 'spot:small:zone-a': 1 },
    });
    const err = await provider.create(testNodeClaim('a', { types: ['small'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect((err as InsufficientCapacityError).offerings).toEqual(['spot:small:zone-a']);
    expect((err as Error).message).toBe(
      'the 1 cheapest of 4 compatible offerings lacked capacity (one create tries at most 1)',
    );
    const retry = await provider.create(testNodeClaim('b', { types: ['small'] }));
    expect(retry.metadata.labels).toMatchObject({ [Labels.CapacityType]: 'spot', [Labels.Zone]: 'zone-b' });
  });

  it('refuses offerings inside a scripted outage window only', async () => {
    const { provider, clock } = setup({
      outages: [{ from: START + MIN, until: START + 2 * MIN, match: { capacityType: 'spot' } }],
    });
    clock.step(MIN);
    const during = await provider.create(testNodeClaim('a', { types: ['small'] }));
    expect(during.metadata.labels?.[Labels.CapacityType]).toBe('on-demand');
    // The window ends at +2 min; the offerings it refused stay cached until +4 min.
    clock.step(3 * MIN);
    const after = await provider.create(testNodeClaim('b', { types: ['small'] }));
    expect(after.metadata.labels?.[Labels.CapacityType]).toBe('spot');
  });

  it('stops launching a reservation once its capacity is in use', async () => {
    const reserved = testInstanceType(
      'res',
      { cpu: '2', memory: '4Gi' },
      { 'reserved:zone-a': 0, 'on-demand:zone-a': 0.2 },
      { reservationCapacity: 1 },
    );
    const { provider } = setup({ catalog: [reserved] });
    const first = await provider.create(testNodeClaim('a'));
    const second = await provider.create(testNodeClaim('b'));
    expect(first.metadata.labels?.[Labels.CapacityType]).toBe('reserved');
    expect(second.metadata.labels?.[Labels.CapacityType]).toBe('on-demand');
    const [type] = await provider.getInstanceTypes(nodePool);
    expect(type?.offerings.map((o) => [o.capacityType, o.available])).toEqual([
      ['reserved', false],
      ['on-demand', true],
    ]);
  });

  it('returns at once with the instance pending and turns it running after the launch latency', async () => {
    const { provider, timers, clock } = setup({ launchLatency: 10_000 });
    const claim = await provider.create(testNodeClaim('a', { types: ['small'] }));
    // Hydrated already (providerID, capacity), as EC2 answers before the instance boots.
    expect(claim.status?.providerID).toBe('sim://zone-a/i-00000000000000001');
    expect(clock.now()).toBe(START);
    expect(provider.instances()[0]?.state).toBe('pending');
    await timers.advance(9_999);
    expect(provider.instances()[0]?.state).toBe('pending');
    await timers.advance(1);
    expect(provider.instances()[0]).toMatchObject({
      state: 'running',
      launchedAt: START,
      runningAt: START + 10_000,
    });
    // Billing runs from the call, not from running.
    expect(provider.costBetween(START, START + HOUR)).toBeCloseTo((0.03 * 10_000) / HOUR, 9);
  });

  it('is idempotent per NodeClaim name, during and after a slow launch', async () => {
    const { provider, timers } = setup({ launchLatency: 10_000 });
    const first = await provider.create(testNodeClaim('a', { types: ['small'] }));
    await timers.advance(5_000);
    // A controller restarted mid-launch finds the instance already there.
    expect((await provider.list()).map((c) => c.metadata.name)).toEqual(['a']);
    const retry = await provider.create(testNodeClaim('a', { types: ['small'] }));
    expect(retry.status?.providerID).toBe(first.status?.providerID);
    await timers.advance(5_000);
    const again = await provider.create(testNodeClaim('a', { types: ['small'] }));
    expect(again.status?.providerID).toBe(first.status?.providerID);
    expect(provider.instances()).toHaveLength(1);
    expect(provider.instances()[0]?.state).toBe('running');
  });

  it('fails at once when no offering has capacity, whatever the launch latency', async () => {
    const { provider, clock } = setup({ launchLatency: 10_000, insufficientCapacityRate: { '*:*:*': 1 } });
    await expect(provider.create(testNodeClaim('a', { types: ['small'] }))).rejects.toThrow(
      InsufficientCapacityError,
    );
    expect(clock.now()).toBe(START);
  });

  it('refuses claims of a NodeClass that is not ready, and malformed claims', async () => {
    const { provider } = setup();
    provider.setNodeClassReady('default', false);
    await expect(provider.create(testNodeClaim('a'))).rejects.toThrow(NodeClassNotReadyError);
    provider.setNodeClassReady('default', true);
    const bad = testNodeClaim('b');
    bad.spec.requirements.push({ key: 'x', operator: 'Gt', values: ['not-a-number'] });
    await expect(provider.create(bad)).rejects.toMatchObject({
      name: 'CreateError',
      conditionReason: 'InvalidNodeClaim',
    });
  });
});

describe('SimulatedCloudProvider delete, get and list', () => {
  it('keeps succeeding while the instance shuts down, then answers NodeClaimNotFound', async () => {
    const { provider, timers } = setup({ terminationLatency: 30_000 });
    const claim = await provider.create(testNodeClaim('a', { types: ['small'] }));
    const providerID = claim.status!.providerID!;
    await provider.delete(claim);
    await timers.advance(10_000);
    await provider.delete(claim);
    const view = await provider.get(providerID);
    expect(view.metadata.deletionTimestamp).toBe('2026-03-01T00:00:00Z');
    await timers.advance(20_000);
    await expect(provider.delete(claim)).rejects.toThrow(NodeClaimNotFoundError);
    await expect(provider.get(providerID)).rejects.toSatisfy(isNodeClaimNotFound);
    expect(await provider.list()).toEqual([]);
    expect(provider.instances()[0]).toMatchObject({ state: 'terminated', terminatedAt: START + 30_000 });
  });

  it('finds an instance by claim name when the claim has no providerID yet', async () => {
    const { provider } = setup();
    await provider.create(testNodeClaim('a', { types: ['small'] }));
    await provider.delete(testNodeClaim('a'));
    await expect(provider.delete(testNodeClaim('a'))).rejects.toThrow(NodeClaimNotFoundError);
    await expect(provider.delete(testNodeClaim('never'))).rejects.toThrow(NodeClaimNotFoundError);
  });

  it('lists live instances as NodeClaims with their launch time', async () => {
    const { provider, clock } = setup();
    await provider.create(testNodeClaim('a', { types: ['small'] }));
    clock.step(MIN);
    const b = await provider.create(testNodeClaim('b', { types: ['large'] }));
    await provider.delete(b);
    const listed = await provider.list();
    expect(listed.map((c) => [c.metadata.name, c.metadata.creationTimestamp])).toEqual([
      ['a', '2026-03-01T00:00:00Z'],
    ]);
  });

  it('lists the same frozen view while an instance is unchanged, and a new one once it shuts down', async () => {
    const { provider, clock } = setup({ terminationLatency: 30_000 });
    const a = await provider.create(testNodeClaim('a', { types: ['small'] }));
    await provider.create(testNodeClaim('b', { types: ['small'] }));
    const [first] = await provider.list();
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.metadata)).toBe(true);
    expect((await provider.list())[0]).toBe(first);
    clock.step(MIN);
    await provider.delete(a);
    const [shutting, other] = await provider.list();
    expect(shutting).not.toBe(first);
    expect(shutting?.metadata.deletionTimestamp).toBe('2026-03-01T00:01:00Z');
    expect(first?.metadata.deletionTimestamp).toBeUndefined();
    expect(other?.metadata.name).toBe('b');
  });

  it('reports image drift and scripted drift', async () => {
    const { provider } = setup();
    const a = await provider.create(testNodeClaim('a', { types: ['small'] }));
    expect(await provider.isDrifted(a)).toBeUndefined();
    provider.setImage('sim-image-2');
    expect(await provider.isDrifted(a)).toBe('ImageDrift');
    const b = await provider.create(testNodeClaim('b', { types: ['small'] }));
    expect(await provider.isDrifted(b)).toBeUndefined();
    provider.setDrift(b.status!.providerID!, 'SubnetDrift');
    expect(await provider.isDrifted(b)).toBe('SubnetDrift');
    provider.setDrift(b.status!.providerID!, undefined);
    expect(await provider.isDrifted(b)).toBeUndefined();
  });

  it('exposes its defaults for node classes and repair policies', () => {
    const { provider } = setup();
    expect(provider.name).toBe('simulated');
    expect(provider.supportedNodeClasses()).toEqual([
      { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass' },
    ]);
    expect(provider.repairPolicies()).toEqual([]);
  });
});

describe('SimulatedCloudProvider interruptions', () => {
  it('sends a spot interruption notice with a 2 minute deadline and takes the instance then', async () => {
    const { provider, timers, clock } = setup({ spotInterruptionRatePerHour: 1 });
    const claim = await provider.create(testNodeClaim('a', { types: ['small'] }));
    const providerID = claim.status!.providerID!;
    // The only timer is the instance's Poisson interruption clock.
    expect(timers.pending()).toBe(1);
    await timers.runUntil(timers.nextAt()!);
    const notices = await provider.interruptions.receive();
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    const noticeAt = provider.instances()[0]!.interruption!.noticeAt;
    expect(notice).toMatchObject({
      kind: 'SpotInterruption',
      providerID,
      deadline: noticeAt + 2 * MIN,
      offering: { capacityType: 'spot', instanceType: 'small', zone: 'zone-a' },
    });
    expect(
      provider.unavailableOfferings.reason({ capacityType: 'spot', instanceType: 'small', zone: 'zone-a' }),
    ).toBe('SpotInterruption');
    const next = await provider.create(testNodeClaim('b', { types: ['small'] }));
    expect(next.metadata.labels?.[Labels.Zone]).toBe('zone-b');
    await timers.runUntil(noticeAt + 2 * MIN - 1);
    expect(provider.instances()[0]?.state).toBe('running');
    await timers.runUntil(noticeAt + 2 * MIN);
    expect(provider.instances()[0]).toMatchObject({ state: 'terminated', terminatedAt: noticeAt + 2 * MIN });
    expect(clock.now()).toBe(noticeAt + 2 * MIN);
  });

  it('draws interruption times from the seed, identically on every run', async () => {
    const times = async (seed: string) => {
      const { provider, timers } = setup({
        spotInterruptionRatePerHour: 0.5,
        random: new SeededRandom(seed),
      });
      for (const name of ['a', 'b', 'c']) await provider.create(testNodeClaim(name, { types: ['small'] }));
      await timers.advance(48 * HOUR);
      return provider.instances().map((i) => i.interruption?.noticeAt);
    };
    const first = await times('one');
    expect(await times('one')).toEqual(first);
    expect(await times('two')).not.toEqual(first);
  });

  it('runs scripted storms against matching spot instances only', async () => {
    const { provider, timers } = setup({
      interruptionStorms: [
        { at: START + 10 * MIN, fraction: 0.5, match: { capacityType: 'spot', zone: 'zone-a' } },
      ],
    });
    for (const name of ['a', 'b', 'c', 'd'])
      await provider.create(testNodeClaim(name, { types: ['small'], zones: ['zone-a'] }));
    await provider.create(testNodeClaim('e', { types: ['small'], zones: ['zone-b'] }));
    await provider.create(
      testNodeClaim('f', { types: ['small'], capacityTypes: ['on-demand'], zones: ['zone-a'] }),
    );
    await timers.advance(10 * MIN);
    const notices = await provider.interruptions.receive();
    expect(notices).toHaveLength(2);
    const hit = new Set(notices.map((n) => n.providerID));
    const instances = provider.instances();
    for (const i of instances) {
      const inStormZone = i.offering.zone === 'zone-a' && i.offering.capacityType === 'spot';
      if (!inStormZone) expect(hit.has(i.providerID)).toBe(false);
    }
    for (const n of notices) expect(n.deadline).toBe(START + 12 * MIN);
  });

  it('does not interrupt an instance twice or one that is gone', async () => {
    const { provider } = setup();
    const a = await provider.create(testNodeClaim('a', { types: ['small'] }));
    const id = a.status!.providerID!;
    expect(provider.interrupt(id)).toBeDefined();
    expect(provider.interrupt(id)).toBeUndefined();
    const b = await provider.create(testNodeClaim('b', { types: ['small'] }));
    await provider.delete(b);
    expect(provider.interrupt(b.status!.providerID!)).toBeUndefined();
    expect(provider.interrupt('sim://nowhere/i-0')).toBeUndefined();
  });
});

describe('SimulatedCloudProvider cost ledger', () => {
  it('bills each instance its offering price from launch to termination', async () => {
    const { provider, timers } = setup({ terminationLatency: 0 });
    const start = START;
    const a = await provider.create(testNodeClaim('a', { types: ['small'], capacityTypes: ['on-demand'] })); // 0.1/h
    await timers.advance(HOUR);
    const b = await provider.create(testNodeClaim('b', { types: ['large'], capacityTypes: ['on-demand'] })); // 0.4/h
    await timers.advance(HOUR / 2);
    await provider.delete(a);
    await timers.advance(HOUR / 2);
    await provider.delete(b);
    await timers.advance(HOUR);
    // a: 1.5 h x 0.1 = 0.15; b: 1 h x 0.4 = 0.4.
    expect(provider.costBetween(start, start + 10 * HOUR)).toBeCloseTo(0.55, 12);
    expect(provider.costBetween(start + HOUR, start + 1.5 * HOUR)).toBeCloseTo(0.05 + 0.2, 12);
    expect(
      provider
        .costRecords()
        .map((r) => [r.nodeClaimName, r.pricePerHour, r.startedAt - start, r.stoppedAt! - start]),
    ).toEqual([
      ['a', 0.1, 0, 1.5 * HOUR],
      ['b', 0.4, HOUR, 2 * HOUR],
    ]);
  });
});
