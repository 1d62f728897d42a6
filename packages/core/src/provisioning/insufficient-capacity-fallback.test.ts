import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { hasDisruptedTaint, startControllerHarness } from '../disruption/testing/controller-harness.js';
import { Pods } from '../kube/resource-types.js';
import { EventReasons } from '../lifecycle/events.js';

const Cheapest = { capacityType: 'on-demand', instanceType: 'fake-small', zone: 'test-zone-a' };

describe('insufficient capacity through the controllers', () => {
  it('deletes the claim whose offering was refused and launches the next pass on another offering', async () => {
    // A cloud that tries one offering per create (as Azure launches one VM size per call), out
    // of capacity for the cheapest offering the pods fit: fake-small on-demand in test-zone-a.
    const h = await startControllerHarness({
      deployments: [],
      cloud: {
        offeringsPerCreate: 1,
        outages: [{ from: 0, until: Number.MAX_SAFE_INTEGER, match: Cheapest }],
      },
    });
    await h.deploy({ name: 'web', replicas: 1 });
    await h.advance(120_000);

    // Only the second attempt launched an instance, on the next cheapest offering.
    const launched = h.env.provider
      .instances()
      .map((i) => `${i.offering.capacityType}:${i.instanceType.name}:${i.offering.zone}`);
    expect(launched).toEqual(['on-demand:fake-small:test-zone-b']);
    expect(h.env.provider.unavailableOfferings.isUnavailable(Cheapest)).toBe(true);

    // The first claim was refused, recorded, deleted; the second launched.
    const ice = h.events.withReason(EventReasons.InsufficientCapacity);
    expect(ice.map((e) => [e.object.kind, e.type])).toEqual([['NodeClaim', 'Warning']]);
    expect(ice[0]?.message).toMatch(/lacked capacity/);
    const firstClaim = ice[0]?.object.metadata.name;
    expect(await h.metric('karpenter_nodeclaims_disrupted_total', { reason: 'insufficient_capacity' })).toBe(
      1,
    );
    expect(await h.metric('karpenter_nodeclaims_created_total', { reason: 'provisioning' })).toBe(2);
    const claims = await h.claims();
    expect(claims.map((c) => c.metadata.name)).not.toContain(firstClaim);
    expect(
      claims.map((c) => [c.metadata.labels?.[Labels.InstanceType], c.metadata.labels?.[Labels.Zone]]),
    ).toEqual([['fake-small', 'test-zone-b']]);

    // The pod runs on the node of the claim that launched.
    const pods = (await h.env.cluster.list(Pods, { namespace: 'default' })).items;
    expect(pods.map((p) => [p.spec.nodeName, p.status?.phase])).toEqual([
      [claims[0]?.status?.nodeName, 'Running'],
    ]);
    expect((await h.nodes()).some(hasDisruptedTaint)).toBe(false);
  }, 30_000);

  it('leaves a type out of the next claims once every offering of it was refused', async () => {
    const h = await startControllerHarness({
      deployments: [],
      cloud: {
        offeringsPerCreate: 1,
        outages: [{ from: 0, until: Number.MAX_SAFE_INTEGER, match: { instanceType: 'fake-small' } }],
      },
    });
    await h.deploy({ name: 'web', replicas: 1 });
    await h.advance(120_000);
    // One claim per refused on-demand zone of fake-small, then one that launched.
    expect(h.events.withReason(EventReasons.InsufficientCapacity).length).toBe(3);
    const claims = await h.claims();
    expect(claims.length).toBe(1);
    const types = claims[0]?.spec.requirements.find((r) => r.key === Labels.InstanceType)?.values ?? [];
    expect(types).not.toContain('fake-small');
    expect(claims[0]?.metadata.labels?.[Labels.InstanceType]).toBe('fake-medium');
    const pods = (await h.env.cluster.list(Pods, { namespace: 'default' })).items;
    expect(pods.map((p) => p.spec.nodeName)).toEqual([claims[0]?.status?.nodeName]);
  }, 30_000);
});
