import { describe, expect, it } from 'vitest';
import type {
  CloudProvider,
  InterruptionNotice,
  InterruptionSource,
} from '../../cloudprovider/cloud-provider.js';
import { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import { InternalError } from '../../kube/errors.js';
import { NodeClaims } from '../../kube/resource-types.js';
import { MetricNames } from '../../metrics/names.js';
import { lifecycleControllers } from '../../operator/controllers.js';
import { RuntimeMetricNames } from '../../operator/runtime/metrics.js';
import { SimulatedInterruptionQueue } from '../../simulation/cloud/interruption-queue.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeClaim } from '../../testing/nodeclaim-builder.js';
import { InterruptionEventReasons, interruptionAction } from './interruption-action.js';
import { InterruptionController, type InterruptionOptions } from './interruption-controller.js';

/**
 * Hands each published notice out once, up to `batch` per receive (SQS returns at most 10);
 * records acknowledgements and how many were in flight at once.
 */
class FakeInterruptionSource implements InterruptionSource {
  readonly acknowledged: string[] = [];
  readonly receives: number[] = [];
  peakAcknowledging = 0;
  #acknowledging = 0;
  #pending: InterruptionNotice[] = [];
  #failReceive = false;

  constructor(readonly batch = Number.POSITIVE_INFINITY) {}

  publish(notice: InterruptionNotice): void {
    this.#pending.push(notice);
  }

  failNextReceive(): void {
    this.#failReceive = true;
  }

  async receive(): Promise<InterruptionNotice[]> {
    if (this.#failReceive) {
      this.#failReceive = false;
      throw new Error('queue unreachable');
    }
    const out = this.#pending.slice(0, this.batch);
    this.#pending = this.#pending.slice(out.length);
    this.receives.push(out.length);
    return out;
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    this.#acknowledging++;
    this.peakAcknowledging = Math.max(this.peakAcknowledging, this.#acknowledging);
    // An acknowledgement is a network call: let the others run meanwhile.
    for (let i = 0; i < 3; i++) await Promise.resolve();
    this.#acknowledging--;
    this.acknowledged.push(notice.id);
  }
}

/** The env's fake cloud, seen with an interruption source attached. */
function withInterruptions(cloud: CloudProvider, source: InterruptionSource): CloudProvider {
  return new Proxy(cloud, {
    get(target, prop) {
      if (prop === 'interruptions') return source;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const offering = { capacityType: 'spot', instanceType: 'fake-small', zone: 'zone-a' };

async function setup(
  names: readonly string[] = ['a', 'b'],
  source = new FakeInterruptionSource(),
  options: InterruptionOptions = {},
) {
  const env = new ControllerEnv();
  const deps = {
    ...lifecycleDependencies(env),
    cloudProvider: withInterruptions(env.cloudProvider, source),
  };
  for (const name of names) {
    await env.create(
      NodeClaims,
      aNodeClaim({
        metadata: {
          name,
          labels: { 'karpenter.sh/capacity-type': 'spot', 'karpenter.sh/nodepool': 'default' },
        },
        status: { providerID: `fake://${name}` },
      }),
    );
  }
  await env.start(new InterruptionController(deps, options));
  return { env, source };
}

/** The controller over the simulator's queue, which long-polls 20 s as SQS does; one claim, `a`. */
async function setupLongPolling() {
  const env = new ControllerEnv();
  const queue = new SimulatedInterruptionQueue({ clock: env.clock, timers: env.timers, waitMs: 20_000 });
  const deps = { ...lifecycleDependencies(env), cloudProvider: withInterruptions(env.cloudProvider, queue) };
  await env.create(NodeClaims, aNodeClaim({ metadata: { name: 'a' }, status: { providerID: 'fake://a' } }));
  await env.start(new InterruptionController(deps));
  return { env, queue };
}

const notice = (id: string, kind: InterruptionNotice['kind'], providerID: string): InterruptionNotice => ({
  id,
  kind,
  providerID,
  message: 'from the test',
});

describe('interruptionAction', () => {
  it('deletes on every kind but rebalance, and marks offerings only for spot', () => {
    expect(interruptionAction('SpotInterruption')).toMatchObject({
      deleteClaim: true,
      markOfferingUnavailable: true,
    });
    for (const kind of ['ScheduledMaintenance', 'InstanceStopping', 'InstanceTerminated'] as const) {
      expect(interruptionAction(kind)).toMatchObject({ deleteClaim: true, markOfferingUnavailable: false });
    }
    expect(interruptionAction('RebalanceRecommendation').deleteClaim).toBe(false);
  });
});

describe('InterruptionController', () => {
  it('deletes the claim a spot notice names, counts it, and acknowledges', async () => {
    const { env, source } = await setup();
    source.publish({ ...notice('n1', 'SpotInterruption', 'fake://b'), deadline: env.clock.now() + 120_000 });
    await env.advance(5_000);
    expect(await env.find(NodeClaims, 'b')).toBeUndefined();
    expect(await env.find(NodeClaims, 'a')).toBeDefined();
    expect(source.acknowledged).toEqual(['n1']);
    expect(env.events.withReason(InterruptionEventReasons.SpotInterrupted)).toHaveLength(1);
    expect(
      await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'interruption', nodepool: 'default' }),
    ).toBe(1);
  });

  it('marks a spot notice offering unavailable in the provider cache', async () => {
    const { env, source } = await setup();
    source.publish({ ...notice('n1', 'SpotInterruption', 'fake://a'), offering });
    await env.advance(5_000);
    const cache = env.cloudProvider.unavailableOfferings;
    expect(cache).toBeInstanceOf(UnavailableOfferingsCache);
    expect(cache.isUnavailable(offering)).toBe(true);
  });

  it('records only an event for a rebalance recommendation', async () => {
    const { env, source } = await setup();
    source.publish({ ...notice('r1', 'RebalanceRecommendation', 'fake://a'), offering });
    await env.advance(5_000);
    expect(await env.find(NodeClaims, 'a')).toBeDefined();
    expect(env.events.withReason(InterruptionEventReasons.RebalanceRecommendation)).toHaveLength(1);
    expect(env.cloudProvider.unavailableOfferings.isUnavailable(offering)).toBe(false);
    expect(source.acknowledged).toEqual(['r1']);
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'interruption' })).toBe(0);
  });

  it('acknowledges a notice for an instance no claim owns, touching nothing', async () => {
    const { env, source } = await setup();
    source.publish(notice('u1', 'InstanceTerminated', 'fake://nobody'));
    await env.advance(5_000);
    expect(source.acknowledged).toEqual(['u1']);
    expect((await env.cluster.list(NodeClaims)).items).toHaveLength(2);
    expect(env.events.events).toHaveLength(0);
  });

  it('keeps polling after a failed receive', async () => {
    const { env, source } = await setup();
    source.failNextReceive();
    await env.advance(5_000);
    source.publish(notice('m1', 'ScheduledMaintenance', 'fake://a'));
    await env.advance(5_000);
    expect(await env.find(NodeClaims, 'a')).toBeUndefined();
    expect(source.acknowledged).toEqual(['m1']);
    expect(env.events.withReason(InterruptionEventReasons.ScheduledMaintenance)).toHaveLength(1);
  });

  it('acts on a storm of 300 notices within three polls, 20 at a time, receiving until the queue is empty', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `c${i}`);
    const { env, source } = await setup(names, new FakeInterruptionSource(10));
    for (const name of names) source.publish(notice(`n-${name}`, 'SpotInterruption', `fake://${name}`));
    // Receives chain while the notices are handled: a few polls see them all.
    for (let poll = 0; poll < 3; poll++) await env.advance(2_000);
    expect((await env.cluster.list(NodeClaims)).items).toEqual([]);
    expect(source.acknowledged.sort()).toEqual(names.map((n) => `n-${n}`).sort());
    expect(source.peakAcknowledging).toBe(20);
    // 30 full receives of 10, then the empty one that ends the chain.
    expect(source.receives.filter((n) => n === 10)).toHaveLength(30);
  });

  it('retries a notice whose handling throws, then drops it after 3 attempts without holding others back', async () => {
    const { env, source } = await setup(['a', 'b', 'c']);
    env.cluster.addAdmissionHook(
      (request) => {
        if (request.operation === 'DELETE' && request.object.metadata.name === 'a')
          throw new InternalError('poisoned');
      },
      [NodeClaims],
    );
    source.publish(notice('poison', 'SpotInterruption', 'fake://a'));
    source.publish(notice('n-b', 'SpotInterruption', 'fake://b'));
    await env.advance(2_000);
    await env.advance(2_000);
    expect(source.acknowledged).toEqual(['n-b']);
    source.publish(notice('n-c', 'InstanceStopping', 'fake://c'));
    await env.advance(2_000);
    await env.advance(2_000);
    expect(source.acknowledged.slice(1).sort()).toEqual(['n-c', 'poison']);
    expect(await env.find(NodeClaims, 'a')).toBeDefined();
    expect(await env.find(NodeClaims, 'c')).toBeUndefined();
    await env.advance(10_000);
    expect(source.acknowledged.filter((id) => id === 'poison')).toHaveLength(1);
  });

  it('acts on a notice the moment a long poll delivers it, and reconciles once per long poll while idle', async () => {
    const { env, queue } = await setupLongPolling();
    const reconciles = () =>
      env.metric(RuntimeMetricNames.ReconcileTotal, { controller: 'nodeclaim.interruption' });
    await env.advance(7_000);
    const before = await reconciles();
    // Mid-poll: the waiting receive answers, and the controller acts without a timer firing.
    queue.publish(notice('m1', 'InstanceStopping', 'fake://a'));
    await env.settle();
    expect(await env.find(NodeClaims, 'a')).toBeUndefined();
    expect(queue.unacknowledged()).toEqual([]);
    expect(await reconciles()).toBeGreaterThan(before);
    // Idle for ten long polls: one reconcile as each ends, not one per 2 s poll interval (100).
    const idleFrom = await reconciles();
    await env.advance(200_000);
    expect(await reconciles()).toBeGreaterThanOrEqual(idleFrom + 10);
    expect(await reconciles()).toBeLessThanOrEqual(idleFrom + 11);
  });

  it('ends its long poll when the manager stops, so a notice published then waits for the next leader', async () => {
    const { env, queue } = await setupLongPolling();
    await env.advance(5_000);
    await env.stop();
    queue.publish(notice('m1', 'InstanceStopping', 'fake://a'));
    // A receive still waiting would have taken it and hidden it for the visibility timeout, so
    // this one would wait out its own long poll and get nothing.
    const next = queue.receive();
    await env.timers.advance(20_000);
    expect((await next).map((n) => n.providerID)).toEqual(['fake://a']);
  });

  it('asks a source that answers at once once per poll interval, not in a loop', async () => {
    const { env, source } = await setup(['a'], new FakeInterruptionSource(), { pollIntervalMs: 2_000 });
    const first = source.receives.length;
    await env.advance(20_000);
    expect(source.receives.length - first).toBe(10);
    // A notice waits for the next receive, at most one interval.
    source.publish(notice('m1', 'ScheduledMaintenance', 'fake://a'));
    await env.advance(2_000);
    expect(source.acknowledged).toEqual(['m1']);
  });

  it('is registered by lifecycleControllers only when the provider has a source', () => {
    const env = new ControllerEnv();
    const plain = lifecycleControllers(lifecycleDependencies(env)).map((c) => c.name);
    expect(plain).not.toContain('nodeclaim.interruption');
    const deps = {
      ...lifecycleDependencies(env),
      cloudProvider: withInterruptions(env.cloudProvider, new FakeInterruptionSource()),
    };
    expect(lifecycleControllers(deps).map((c) => c.name)).toContain('nodeclaim.interruption');
  });
});
