import { describe, expect, it } from 'vitest';
import type {
  CloudProvider,
  InterruptionNotice,
  InterruptionSource,
} from '../../cloudprovider/cloud-provider.js';
import { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import { NodeClaims } from '../../kube/resource-types.js';
import { MetricNames } from '../../metrics/names.js';
import { lifecycleControllers } from '../../operator/controllers.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeClaim } from '../../testing/nodeclaim-builder.js';
import { InterruptionEventReasons, interruptionAction } from './interruption-action.js';
import { InterruptionController } from './interruption-controller.js';

/** Hands each published notice out once, at once; records acknowledgements. */
class FakeInterruptionSource implements InterruptionSource {
  readonly acknowledged: string[] = [];
  #pending: InterruptionNotice[] = [];
  #failReceive = false;

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
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
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

async function setup() {
  const env = new ControllerEnv();
  const source = new FakeInterruptionSource();
  const deps = {
    ...lifecycleDependencies(env),
    cloudProvider: withInterruptions(env.cloudProvider, source),
  };
  for (const name of ['a', 'b']) {
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
  await env.start(new InterruptionController(deps));
  return { env, source };
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
