import { describe, expect, it } from 'vitest';
import type { CoreEvent, EventInput } from '../event.js';
import { referenceTo } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { Events, Nodes as TypedNodes } from '../resource-types.js';
import { newCluster } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Nodes: ResourceType = TypedNodes;

describe('createEvent', () => {
  it('stores a core/v1 Event and aggregates identical ones into a count', async () => {
    const { cluster, clock } = newCluster();
    const node = await cluster.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    const input: EventInput = {
      involvedObject: referenceTo(node),
      reason: 'DisruptionBlocked',
      message: 'pdb web prevents eviction',
      type: 'Warning',
      source: { component: 'nodewright' },
    };
    await cluster.createEvent(input);
    clock.step(30_000);
    await cluster.createEvent(input);
    await cluster.createEvent({ ...input, message: 'something else' });
    const events = (await cluster.list<CoreEvent>(Events, { fieldSelector: 'involvedObject.name=n1' })).items;
    expect(events).toHaveLength(2);
    const blocked = events.find((e) => e.message === 'pdb web prevents eviction');
    expect(blocked).toMatchObject({
      metadata: { namespace: 'default' },
      involvedObject: { kind: 'Node', name: 'n1', uid: node.metadata.uid },
      type: 'Warning',
      reason: 'DisruptionBlocked',
      count: 2,
      firstTimestamp: '2026-03-01T12:00:00Z',
      lastTimestamp: '2026-03-01T12:00:30Z',
      source: { component: 'nodewright' },
    });
    expect(
      (await cluster.list(Events, { fieldSelector: 'reason=DisruptionBlocked,type=Warning' })).items,
    ).toHaveLength(2);
  });

  it('starts a new Event when the aggregated one was deleted', async () => {
    const { cluster } = newCluster();
    const input: EventInput = {
      involvedObject: { kind: 'Node', name: 'n1' },
      reason: 'R',
      message: 'm',
      type: 'Normal',
    };
    await cluster.createEvent(input);
    const [first] = (await cluster.list(Events)).items;
    await cluster.delete(Events, { name: first?.metadata.name as string, namespace: 'default' });
    await cluster.createEvent(input);
    const events = (await cluster.list<CoreEvent>(Events)).items;
    expect(events.map((e) => e.count)).toEqual([1]);
  });
});
